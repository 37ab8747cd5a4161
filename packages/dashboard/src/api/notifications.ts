/**
 * Query options for notification subscriptions and their delivery attempts: the one place their keys are
 * made, so a change invalidates exactly what shows it.
 */
import type { AgentRuns } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (cursor: string | undefined) => [...notificationKeys.all, 'list', cursor ?? null] as const,
  one: (uid: string) => [...notificationKeys.all, 'one', uid] as const,
  attemptsOf: (uid: string) => [...notificationKeys.all, 'attempts', uid] as const,
  attempts: (uid: string, cursor: string | undefined) => [...notificationKeys.attemptsOf(uid), cursor ?? null] as const,
};

export const subscriptionsQuery = (client: AgentRuns, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: notificationKeys.list(cursor),
    queryFn: async ({ signal }) => {
      const page = await client.notifications.subscriptions.list({ limit, ...(cursor ? { cursor } : {}) }, { signal });
      return { subscriptions: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });

export const subscriptionQuery = (client: AgentRuns, uid: string) =>
  queryOptions({ queryKey: notificationKeys.one(uid), queryFn: ({ signal }) => client.notifications.subscriptions.retrieve(uid, { signal }) });

export const attemptsQuery = (client: AgentRuns, uid: string, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: notificationKeys.attempts(uid, cursor),
    queryFn: async ({ signal }) => {
      const page = await client.notifications.subscriptions.attempts.list(uid, { limit, ...(cursor ? { cursor } : {}) }, { signal });
      return { attempts: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });

/** A subscription was created, changed, rotated or deleted. */
export const invalidateSubscriptions = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: notificationKeys.all });

/** An event was replayed to a subscription: its attempts, on every page. */
export const invalidateAttempts = (queryClient: QueryClient, uid: string) => queryClient.invalidateQueries({ queryKey: notificationKeys.attemptsOf(uid) });
