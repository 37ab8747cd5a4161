// The query-option factories read the API path they name, and each invalidation reaches every query that
// shows what changed (an environment deleted anywhere leaves the run form's and the automation editor's selects).
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { environment, run } from '../testing/fixtures';
import { installMockApi, json, page, type MockApi } from '../testing/mock-api';
import { createClient } from './client';
import { environmentQuery, environmentsForSelectQuery, environmentsQuery, invalidateEnvironments } from './environments';
import { automationQuery, automationsQuery, automationStored, factoryQuery, webhooksQuery, webhookStored } from './factories';
import { invalidateRun, runQuery, runsQuery } from './runs';

describe('query-option factories', () => {
  let api: MockApi;
  let queryClient: QueryClient;
  const client = () => createClient('ar_test_key');
  const invalidated = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.isInvalidated;

  beforeEach(() => {
    api = installMockApi();
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });

  it('an environment change invalidates the environments page, both selects and the environment itself', async () => {
    api.on('GET /agent/environments', () => page('environments', [environment('env_1', 'node')]));
    api.on('GET /agent/environments/:uid', (_request, { uid }) => json(environment(uid!, 'node')));
    const queries = [
      environmentsQuery(client(), { sort_by: 'last_updated', limit: 20 }),
      environmentsForSelectQuery(client()),
      environmentQuery(client(), 'env_1'),
    ];
    for (const query of queries) await queryClient.prefetchQuery(query as never);
    expect(api.requests).toEqual([
      'GET /agent/environments?sort_by=last_updated&limit=20',
      'GET /agent/environments?sort_by=name&limit=500',
      'GET /agent/environments/env_1',
    ]);
    expect(queries.map((q) => invalidated(q.queryKey))).toEqual([false, false, false]);

    await invalidateEnvironments(queryClient);
    expect(queries.map((q) => invalidated(q.queryKey))).toEqual([true, true, true]);
  });

  it("a stored webhook is written into its query and the factory's webhook list (page and editor alike) re-reads", async () => {
    const webhook = { uid: 'wh_1', factory_uid: 'fac_1', name: 'Issues' };
    api.on('GET /factories/:factoryUid', (_request, { factoryUid }) => json({ uid: factoryUid, name: 'Factory' }));
    api.on('GET /factories/:factoryUid/webhooks', () => page('webhooks', [webhook]));
    await queryClient.prefetchQuery(factoryQuery(client(), 'fac_1'));
    await queryClient.prefetchQuery(webhooksQuery(client(), 'fac_1'));

    const renamed = { ...webhook, name: 'Issues and PRs' } as never;
    await webhookStored(queryClient, renamed);
    expect(queryClient.getQueryData(['factories', 'one', 'fac_1', 'webhook', 'wh_1'])).toEqual(renamed);
    expect(invalidated(webhooksQuery(client(), 'fac_1').queryKey)).toBe(true);
    expect(invalidated(factoryQuery(client(), 'fac_1').queryKey)).toBe(false);
  });

  it('a saved automation replaces its cached copy and invalidates the lists of automations, not the automation', async () => {
    const automation = { uid: 'aut_1', name: 'Triage' };
    api.on('GET /factories/:factoryUid/automations', () => page('automations', [automation]));
    api.on('GET /factories/:factoryUid/automations/:uid', () => json(automation));
    await queryClient.prefetchQuery(automationsQuery(client(), 'fac_1', undefined, 25));
    await queryClient.prefetchQuery(automationQuery(client(), 'fac_1', 'aut_1'));

    await automationStored(queryClient, 'fac_1', { ...automation, name: 'Triage v2' } as never);
    expect(queryClient.getQueryData(automationQuery(client(), 'fac_1', 'aut_1').queryKey)).toMatchObject({ name: 'Triage v2' });
    expect(invalidated(automationQuery(client(), 'fac_1', 'aut_1').queryKey)).toBe(false);
    expect(invalidated(automationsQuery(client(), 'fac_1', undefined, 25).queryKey)).toBe(true);
  });

  it("a run's change invalidates the run and every list of runs, not another run", async () => {
    api.on('GET /agent/runs', () => page('runs', [run('a', 'Alpha', 'QUEUED')]));
    api.on('GET /agent/runs/:runId', (_request, { runId }) => json(run(runId!, runId!, 'QUEUED')));
    const lists = [runsQuery(client(), {}), runsQuery(client(), { state: ['QUEUED'] })];
    for (const query of lists) await queryClient.prefetchQuery(query);
    await queryClient.prefetchQuery(runQuery(client(), 'a'));
    await queryClient.prefetchQuery(runQuery(client(), 'b'));
    expect(api.requests).toContain('GET /agent/runs?state=QUEUED');

    await invalidateRun(queryClient, 'a');
    expect(lists.map((q) => invalidated(q.queryKey))).toEqual([true, true]);
    expect(invalidated(runQuery(client(), 'a').queryKey)).toBe(true);
    expect(invalidated(runQuery(client(), 'b').queryKey)).toBe(false);
  });
});
