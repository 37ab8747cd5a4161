/**
 * Query options for factories and what hangs off them: webhooks, automations and webhook deliveries. One key
 * tree per factory (`factoryKeys.one(uid)` is the prefix of everything of that factory), so a change
 * invalidates the factory's page, the webhook page and the automation editor alike.
 */
import type { AgentRuns, Automation, Webhook } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';

/** A factory holds at most 20 webhooks (docs/service-spec.md §Limits): one page holds them all. */
const WEBHOOKS_PAGE = 20;

export const factoryKeys = {
  all: ['factories'] as const,
  list: (cursor: string | undefined) => [...factoryKeys.all, 'list', cursor ?? null] as const,
  one: (factoryUid: string) => [...factoryKeys.all, 'one', factoryUid] as const,
  detail: (factoryUid: string) => [...factoryKeys.one(factoryUid), 'detail'] as const,
  webhooks: (factoryUid: string) => [...factoryKeys.one(factoryUid), 'webhooks'] as const,
  webhook: (factoryUid: string, webhookUid: string) => [...factoryKeys.one(factoryUid), 'webhook', webhookUid] as const,
  deliveries: (factoryUid: string, webhookUid: string) => [...factoryKeys.webhook(factoryUid, webhookUid), 'deliveries'] as const,
  deliveryPage: (factoryUid: string, webhookUid: string, cursor: string | undefined, limit: number) =>
    [...factoryKeys.deliveries(factoryUid, webhookUid), cursor ?? null, limit] as const,
  delivery: (factoryUid: string, webhookUid: string, deliveryId: string) => [...factoryKeys.webhook(factoryUid, webhookUid), 'delivery', deliveryId] as const,
  automations: (factoryUid: string) => [...factoryKeys.one(factoryUid), 'automations'] as const,
  automationLists: (factoryUid: string) => [...factoryKeys.automations(factoryUid), 'list'] as const,
  automationPage: (factoryUid: string, cursor: string | undefined) => [...factoryKeys.automationLists(factoryUid), cursor ?? null] as const,
  automation: (factoryUid: string, automationUid: string) => [...factoryKeys.automations(factoryUid), 'one', automationUid] as const,
};

export const factoriesQuery = (client: AgentRuns, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: factoryKeys.list(cursor),
    queryFn: ({ signal }) => client.factories.list({ limit, cursor }, { signal }),
    placeholderData: keepPreviousData,
  });

export const factoryQuery = (client: AgentRuns, factoryUid: string) =>
  queryOptions({ queryKey: factoryKeys.detail(factoryUid), queryFn: ({ signal }) => client.factories.retrieve(factoryUid, { signal }) });

/** All of a factory's webhooks; always re-read on showing (a sender may have changed what they show). */
export const webhooksQuery = (client: AgentRuns, factoryUid: string) =>
  queryOptions({
    queryKey: factoryKeys.webhooks(factoryUid),
    queryFn: async ({ signal }) => (await client.factories.webhooks.list(factoryUid, { limit: WEBHOOKS_PAGE }, { signal })).data,
    staleTime: 0,
  });

export const webhookQuery = (client: AgentRuns, factoryUid: string, webhookUid: string) =>
  queryOptions({
    queryKey: factoryKeys.webhook(factoryUid, webhookUid),
    queryFn: ({ signal }) => client.factories.webhooks.retrieve(factoryUid, webhookUid, { signal }),
  });

/** A webhook's delivery log, newest first; always re-read (deliveries keep arriving). */
export const deliveriesQuery = (client: AgentRuns, factoryUid: string, webhookUid: string, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: factoryKeys.deliveryPage(factoryUid, webhookUid, cursor, limit),
    queryFn: ({ signal }) => client.factories.webhooks.deliveries.list(factoryUid, webhookUid, { limit, cursor }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const deliveryQuery = (client: AgentRuns, factoryUid: string, webhookUid: string, deliveryId: string) =>
  queryOptions({
    queryKey: factoryKeys.delivery(factoryUid, webhookUid, deliveryId),
    queryFn: ({ signal }) => client.factories.webhooks.deliveries.retrieve(factoryUid, webhookUid, deliveryId, { signal }),
  });

export const automationsQuery = (client: AgentRuns, factoryUid: string, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: factoryKeys.automationPage(factoryUid, cursor),
    queryFn: ({ signal }) => client.factories.automations.list(factoryUid, { limit, cursor }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const automationQuery = (client: AgentRuns, factoryUid: string, automationUid: string) =>
  queryOptions({
    queryKey: factoryKeys.automation(factoryUid, automationUid),
    queryFn: ({ signal }) => client.factories.automations.retrieve(factoryUid, automationUid, { signal }),
  });

/** A factory was created: the lists of factories. */
export const invalidateFactoryLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [...factoryKeys.all, 'list'] });

/** A webhook was created: the factory's list of webhooks. */
export const invalidateWebhooks = (queryClient: QueryClient, factoryUid: string) =>
  queryClient.invalidateQueries({ queryKey: factoryKeys.webhooks(factoryUid) });

/** A webhook was changed or rotated: the answer is the webhook as it is now; the list re-reads. */
export function webhookStored(queryClient: QueryClient, webhook: Webhook): Promise<void> {
  queryClient.setQueryData(factoryKeys.webhook(webhook.factory_uid, webhook.uid), webhook);
  return invalidateWebhooks(queryClient, webhook.factory_uid);
}

export function webhookDeleted(queryClient: QueryClient, factoryUid: string, webhookUid: string): Promise<void> {
  queryClient.removeQueries({ queryKey: factoryKeys.webhook(factoryUid, webhookUid) });
  return invalidateWebhooks(queryClient, factoryUid);
}

/** An automation was saved: the answer is the automation as it is now; the lists re-read. */
export function automationStored(queryClient: QueryClient, factoryUid: string, automation: Automation): Promise<void> {
  queryClient.setQueryData(factoryKeys.automation(factoryUid, automation.uid), automation);
  return queryClient.invalidateQueries({ queryKey: factoryKeys.automationLists(factoryUid) });
}

export function automationDeleted(queryClient: QueryClient, factoryUid: string, automationUid: string): Promise<void> {
  queryClient.removeQueries({ queryKey: factoryKeys.automation(factoryUid, automationUid) });
  return queryClient.invalidateQueries({ queryKey: factoryKeys.automationLists(factoryUid) });
}
