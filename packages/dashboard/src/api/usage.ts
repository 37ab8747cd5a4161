/**
 * Query options for the team's usage and budget: the one place their keys are made, so a page that changes
 * the budget invalidates exactly what shows it (bulletproof-react's per-feature `api/` modules).
 */
import type { AgentRuns } from '@agent-runs/sdk';
import { queryOptions, type QueryClient } from '@tanstack/react-query';

export const usageKeys = {
  all: ['usage'] as const,
  budget: () => [...usageKeys.all, 'budget'] as const,
  month: (month: string) => [...usageKeys.all, 'month', month] as const,
};

export const budgetQuery = (client: AgentRuns) => queryOptions({ queryKey: usageKeys.budget(), queryFn: ({ signal }) => client.budget.retrieve({ signal }) });

export const monthUsageQuery = (client: AgentRuns, month: string) =>
  queryOptions({ queryKey: usageKeys.month(month), queryFn: ({ signal }) => client.usage.retrieve({ month }, { signal }) });

/** The budget changed: it and the usage measured against it. */
export const invalidateUsage = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: usageKeys.all });
