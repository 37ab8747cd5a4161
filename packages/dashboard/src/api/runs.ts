/**
 * Query options for runs: the list pages, one run, its conversation, the run of a session, the runs a
 * webhook delivery started, an artifact and the models offered for a new run. The one place their keys are
 * made, and the invalidations that go with them (bulletproof-react's per-feature `api/` modules).
 */
import type { AgentRuns, RunListParams } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const runKeys = {
  all: ['runs'] as const,
  lists: () => [...runKeys.all, 'list'] as const,
  list: (params: RunListParams) => [...runKeys.lists(), params] as const,
  one: (runId: string) => [...runKeys.all, 'one', runId] as const,
  conversation: (runId: string) => [...runKeys.all, 'conversation', runId] as const,
  session: (sessionId: string) => [...runKeys.all, 'session', sessionId] as const,
  ofDelivery: (deliveryId: string) => [...runKeys.all, 'of-delivery', deliveryId] as const,
};

export interface RunsPage {
  runs: Awaited<ReturnType<AgentRuns['agent']['runs']['list']>>['data'];
  nextCursor: string | null | undefined;
}

export const runsQuery = (client: AgentRuns, params: RunListParams) =>
  queryOptions({
    queryKey: runKeys.list(params),
    queryFn: async ({ signal }): Promise<RunsPage> => {
      const page = await client.agent.runs.list(params, { signal });
      return { runs: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });

export const runQuery = (client: AgentRuns, runId: string) =>
  queryOptions({ queryKey: runKeys.one(runId), queryFn: ({ signal }) => client.agent.runs.retrieve(runId, { signal }) });

export const conversationQuery = (client: AgentRuns, runId: string) =>
  queryOptions({ queryKey: runKeys.conversation(runId), queryFn: ({ signal }) => client.agent.runs.conversation(runId, { signal }) });

/** The run of a session_link's session, or null when the team has none. */
export const sessionRunQuery = (client: AgentRuns, sessionId: string) =>
  queryOptions({
    queryKey: runKeys.session(sessionId),
    queryFn: async ({ signal }) => (await client.agent.runs.list({ session_id: sessionId, limit: 1 }, { signal })).data[0] ?? null,
  });

/** Oldest first: the runs a delivery started on arrival, then those of each replay. */
export const deliveryRunsQuery = (client: AgentRuns, deliveryId: string) =>
  queryOptions({
    queryKey: runKeys.ofDelivery(deliveryId),
    queryFn: ({ signal }) => client.agent.runs.list({ delivery_id: deliveryId, sort_by: 'created_at', sort_order: 'asc', limit: 100 }, { signal }),
  });

/** An artifact never changes once written. */
export const artifactQuery = (client: AgentRuns, uid: string) =>
  queryOptions({ queryKey: ['artifacts', uid] as const, queryFn: ({ signal }) => client.agent.getArtifact(uid, { signal }), staleTime: Infinity });

/** Suggestions for a new run's model field (`GET /agent/models`). */
export const modelsQuery = (client: AgentRuns) =>
  queryOptions({ queryKey: ['models'] as const, queryFn: ({ signal }) => client.agent.models.list({ signal }) });

/** A run was created (by this person, a replay…): every list of runs may show it. */
export const invalidateRunLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: runKeys.lists() });

/** A run changed (cancelled, followed up, finished): the run, its conversation and every list showing it. */
export const invalidateRun = (queryClient: QueryClient, runId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: runKeys.one(runId) }),
    queryClient.invalidateQueries({ queryKey: runKeys.conversation(runId) }),
    invalidateRunLists(queryClient),
  ]);

/** A delivery was replayed: the runs it started. */
export const invalidateDeliveryRuns = (queryClient: QueryClient, deliveryId: string) =>
  queryClient.invalidateQueries({ queryKey: runKeys.ofDelivery(deliveryId) });
