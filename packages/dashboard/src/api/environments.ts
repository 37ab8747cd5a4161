/**
 * Query options for cloud environments: the environments page's list, the selects of the run form and the
 * automation editor, and one environment. Every list sits under `environmentKeys.lists()`, so a change made
 * anywhere reaches every list that shows environments.
 */
import type { AgentRuns, EnvironmentListParams } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const environmentKeys = {
  all: ['environments'] as const,
  lists: () => [...environmentKeys.all, 'list'] as const,
  list: (params: EnvironmentListParams) => [...environmentKeys.lists(), params] as const,
  forSelect: () => [...environmentKeys.lists(), 'for-select'] as const,
  one: (uid: string) => [...environmentKeys.all, 'one', uid] as const,
};

export const environmentsQuery = (client: AgentRuns, params: EnvironmentListParams) =>
  queryOptions({
    queryKey: environmentKeys.list(params),
    queryFn: ({ signal }) => client.agent.environments.list(params, { signal }),
    placeholderData: keepPreviousData,
  });

/** The environments offered in a select (run form, automation editor), by name; a stored one beyond them is still shown. */
export const environmentsForSelectQuery = (client: AgentRuns) =>
  queryOptions({
    queryKey: environmentKeys.forSelect(),
    queryFn: async ({ signal }) => (await client.agent.environments.list({ sort_by: 'name', limit: 500 }, { signal })).data,
  });

export const environmentQuery = (client: AgentRuns, uid: string) =>
  queryOptions({ queryKey: environmentKeys.one(uid), queryFn: ({ signal }) => client.agent.environments.retrieve(uid, { signal }), staleTime: 60_000 });

/** An environment was created, edited or deleted: every list and the environment itself. */
export const invalidateEnvironments = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: environmentKeys.all });
