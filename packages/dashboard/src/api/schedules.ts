/**
 * Query options for scheduled agents: the one place their keys are made, so every change invalidates exactly
 * the lists and schedules that show it.
 */
import type { AgentRuns } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (cursor: string | undefined) => [...scheduleKeys.all, 'list', cursor ?? null] as const,
};

export const schedulesQuery = (client: AgentRuns, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: scheduleKeys.list(cursor),
    queryFn: async ({ signal }) => {
      const page = await client.agent.schedules.list({ limit, ...(cursor ? { cursor } : {}) }, { signal });
      return { schedules: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });

/** A schedule was created, edited, paused or resumed. */
export const invalidateSchedules = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
