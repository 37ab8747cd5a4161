/** Query options for team secrets (names and dates only) and the invalidation after a put or delete. */
import type { AgentRuns } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const secretKeys = {
  all: ['secrets'] as const,
  list: (cursor: string | undefined) => [...secretKeys.all, 'list', cursor ?? null] as const,
};

export const secretsQuery = (client: AgentRuns, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: secretKeys.list(cursor),
    queryFn: ({ signal }) => client.secrets.list({ limit, cursor }, { signal }),
    placeholderData: keepPreviousData,
  });

export const invalidateSecrets = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: secretKeys.all });
