/** Query options for the team's API keys and the invalidation after a create or revoke. */
import type { AgentRuns } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (cursor: string | undefined) => [...apiKeyKeys.all, 'list', cursor ?? null] as const,
};

export const apiKeysQuery = (client: AgentRuns, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: apiKeyKeys.list(cursor),
    queryFn: ({ signal }) => client.apiKeys.list({ limit, cursor }, { signal }),
    placeholderData: keepPreviousData,
  });

export const invalidateApiKeys = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
