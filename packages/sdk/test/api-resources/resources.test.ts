import { describe, expect, it } from 'vitest';

import { AgentRuns, type Fetch } from '../../src/index';
import { json, mockFetch } from '../utils/mock-fetch';

// Every resource method against an injected fetch: the HTTP method, the path under the base URL and
// the JSON body it sends. (Answers are checked against the contract by the Prism tests.)
const cases: Array<[string, (c: AgentRuns) => PromiseLike<unknown>, string, unknown?]> = [
  ['agent.skills.list', (c) => c.agent.skills.list(), 'GET /agent/skills'],
  ['agent.getArtifact', (c) => c.agent.getArtifact('art_1'), 'GET /agent/artifacts/art_1'],
  [
    'agent.runs.retrieveByExternalReference',
    (c) => c.agent.runs.retrieveByExternalReference('https://issues.example.com/ENG-1?x=1'),
    'GET /agent/run-by-external-reference?url=https%3A%2F%2Fissues.example.com%2FENG-1%3Fx%3D1',
  ],
  ['agent.environments.create', (c) => c.agent.environments.create({ name: 'env' }), 'POST /agent/environments', { name: 'env' }],
  ['agent.environments.list', (c) => c.agent.environments.list({ limit: 5 }), 'GET /agent/environments?limit=5'],
  ['agent.environments.retrieve', (c) => c.agent.environments.retrieve('env_1'), 'GET /agent/environments/env_1'],
  ['agent.environments.update', (c) => c.agent.environments.update('env_1', { description: 'd' }), 'PATCH /agent/environments/env_1', { description: 'd' }],
  ['agent.environments.delete', (c) => c.agent.environments.delete('env_1'), 'DELETE /agent/environments/env_1'],
  [
    'agent.schedules.create',
    (c) => c.agent.schedules.create({ name: 'nightly', cron_schedule: '0 2 * * *', time_zone: 'Europe/Paris', prompt: 'p' }),
    'POST /agent/schedules',
    { name: 'nightly', cron_schedule: '0 2 * * *', time_zone: 'Europe/Paris', prompt: 'p' },
  ],
  ['agent.schedules.list', (c) => c.agent.schedules.list({ limit: 5 }), 'GET /agent/schedules?limit=5'],
  ['agent.schedules.retrieve', (c) => c.agent.schedules.retrieve('sch_1'), 'GET /agent/schedules/sch_1'],
  [
    'agent.schedules.update',
    (c) => c.agent.schedules.update('sch_1', { name: 'n', cron_schedule: '0 3 * * *', enabled: false }),
    'PUT /agent/schedules/sch_1',
    { name: 'n', cron_schedule: '0 3 * * *', enabled: false },
  ],
  ['agent.schedules.delete', (c) => c.agent.schedules.delete('sch_1'), 'DELETE /agent/schedules/sch_1'],
  ['agent.schedules.pause', (c) => c.agent.schedules.pause('sch_1'), 'POST /agent/schedules/sch_1/pause'],
  ['agent.schedules.resume', (c) => c.agent.schedules.resume('sch_1'), 'POST /agent/schedules/sch_1/resume'],
  ['factories.create', (c) => c.factories.create({ name: 'f' }), 'POST /factories', { name: 'f' }],
  ['factories.list', (c) => c.factories.list(), 'GET /factories'],
  ['factories.retrieve', (c) => c.factories.retrieve('fac_1'), 'GET /factories/fac_1'],
  [
    'factories.applyDefinitions',
    (c) => c.factories.applyDefinitions('fac_1', { files: [{ path: 'webhooks/a.yaml', content: 'x' }] }),
    'POST /factories/fac_1/definitions/apply',
    { files: [{ path: 'webhooks/a.yaml', content: 'x' }] },
  ],
  [
    'factories.testFilter',
    (c) => c.factories.testFilter('fac_1', { delivery_id: 'dlv_1', trigger: { provider: 'webhook', event: 'received', filter: { webhook_ids: ['wh_1'] } } }),
    'POST /factories/fac_1/test-filter',
    { delivery_id: 'dlv_1', trigger: { provider: 'webhook', event: 'received', filter: { webhook_ids: ['wh_1'] } } },
  ],
  ['factories.runs.create', (c) => c.factories.runs.create('fac_1', { prompt: 'go' }), 'POST /factories/fac_1/runs', { prompt: 'go' }],
  [
    'factories.webhooks.create',
    (c) => c.factories.webhooks.create('fac_1', { name: 'gh', enabled: true }),
    'POST /factories/fac_1/webhooks',
    { name: 'gh', enabled: true },
  ],
  ['factories.webhooks.list', (c) => c.factories.webhooks.list('fac_1'), 'GET /factories/fac_1/webhooks'],
  ['factories.webhooks.retrieve', (c) => c.factories.webhooks.retrieve('fac_1', 'wh_1'), 'GET /factories/fac_1/webhooks/wh_1'],
  [
    'factories.webhooks.update',
    (c) => c.factories.webhooks.update('fac_1', 'wh_1', { enabled: false }),
    'PATCH /factories/fac_1/webhooks/wh_1',
    { enabled: false },
  ],
  ['factories.webhooks.rotateSecret', (c) => c.factories.webhooks.rotateSecret('fac_1', 'wh_1'), 'POST /factories/fac_1/webhooks/wh_1/rotate-secret', {}],
  ['factories.webhooks.delete', (c) => c.factories.webhooks.delete('fac_1', 'wh_1'), 'DELETE /factories/fac_1/webhooks/wh_1'],
  [
    'factories.webhooks.deliveries.list',
    (c) => c.factories.webhooks.deliveries.list('fac_1', 'wh_1', { limit: 10 }),
    'GET /factories/fac_1/webhooks/wh_1/deliveries?limit=10',
  ],
  [
    'factories.webhooks.deliveries.retrieve',
    (c) => c.factories.webhooks.deliveries.retrieve('fac_1', 'wh_1', 'dlv_1'),
    'GET /factories/fac_1/webhooks/wh_1/deliveries/dlv_1',
  ],
  [
    'factories.webhooks.deliveries.replay',
    (c) => c.factories.webhooks.deliveries.replay('fac_1', 'wh_1', 'dlv_1'),
    'POST /factories/fac_1/webhooks/wh_1/deliveries/dlv_1/replay',
  ],
  [
    'factories.automations.create',
    (c) =>
      c.factories.automations.create('fac_1', {
        name: 'a',
        prompt: 'p',
        enabled: true,
        triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: ['wh_1'] } }],
      }),
    'POST /factories/fac_1/automations',
    { name: 'a', prompt: 'p', enabled: true, triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: ['wh_1'] } }] },
  ],
  ['factories.automations.list', (c) => c.factories.automations.list('fac_1'), 'GET /factories/fac_1/automations'],
  ['factories.automations.retrieve', (c) => c.factories.automations.retrieve('fac_1', 'aut_1'), 'GET /factories/fac_1/automations/aut_1'],
  [
    'factories.automations.update',
    (c) => c.factories.automations.update('fac_1', 'aut_1', { enabled: false }),
    'PATCH /factories/fac_1/automations/aut_1',
    { enabled: false },
  ],
  ['factories.automations.delete', (c) => c.factories.automations.delete('fac_1', 'aut_1'), 'DELETE /factories/fac_1/automations/aut_1'],
  [
    'factories.automations.testFilter',
    (c) => c.factories.automations.testFilter('fac_1', 'aut_1', { delivery_id: 'dlv_1' }),
    'POST /factories/fac_1/automations/aut_1/test-filter',
    { delivery_id: 'dlv_1' },
  ],
  ['secrets.list', (c) => c.secrets.list(), 'GET /secrets'],
  ['secrets.put', (c) => c.secrets.put('MY_SECRET', { value: 's3cr3t' }), 'PUT /secrets/MY_SECRET', { value: 's3cr3t' }],
  ['secrets.delete', (c) => c.secrets.delete('MY_SECRET'), 'DELETE /secrets/MY_SECRET'],
  ['budget.retrieve', (c) => c.budget.retrieve(), 'GET /team/budget'],
  [
    'budget.update',
    (c) => c.budget.update({ max_tokens_per_month: 1000, max_cost_usd_per_month: null }),
    'PUT /team/budget',
    { max_tokens_per_month: 1000, max_cost_usd_per_month: null },
  ],
  ['usage.retrieve', (c) => c.usage.retrieve({ month: '2026-10' }), 'GET /usage?month=2026-10'],
  ['apiKeys.create', (c) => c.apiKeys.create({ name: 'ci', role: 'member' }), 'POST /api-keys', { name: 'ci', role: 'member' }],
  ['apiKeys.list', (c) => c.apiKeys.list(), 'GET /api-keys'],
  ['apiKeys.delete', (c) => c.apiKeys.delete('key_1'), 'DELETE /api-keys/key_1'],
  [
    'auditEvents.list',
    (c) => c.auditEvents.list({ resource_type: 'secret', resource_id: 'TOKEN', actor_key_id: 'key_1', since: '2026-11-01T00:00:00Z', limit: 5 }),
    'GET /audit-events?resource_type=secret&resource_id=TOKEN&actor_key_id=key_1&since=2026-11-01T00%3A00%3A00Z&limit=5',
  ],
  [
    'notifications.subscriptions.create',
    (c) => c.notifications.subscriptions.create({ url: 'https://hooks.test/', event_types: ['run.failed'], filter: { factory_uid: 'fac_1' } }),
    'POST /notifications/subscriptions',
    { url: 'https://hooks.test/', event_types: ['run.failed'], filter: { factory_uid: 'fac_1' } },
  ],
  ['notifications.subscriptions.list', (c) => c.notifications.subscriptions.list({ limit: 5 }), 'GET /notifications/subscriptions?limit=5'],
  ['notifications.subscriptions.retrieve', (c) => c.notifications.subscriptions.retrieve('sub_1'), 'GET /notifications/subscriptions/sub_1'],
  [
    'notifications.subscriptions.update',
    (c) => c.notifications.subscriptions.update('sub_1', { enabled: true, description: null }),
    'PATCH /notifications/subscriptions/sub_1',
    { enabled: true, description: null },
  ],
  [
    'notifications.subscriptions.rotateSecret',
    (c) => c.notifications.subscriptions.rotateSecret('sub_1'),
    'POST /notifications/subscriptions/sub_1/rotate-secret',
    {},
  ],
  ['notifications.subscriptions.delete', (c) => c.notifications.subscriptions.delete('sub_1'), 'DELETE /notifications/subscriptions/sub_1'],
  [
    'notifications.subscriptions.attempts.list',
    (c) => c.notifications.subscriptions.attempts.list('sub_1', { event_id: 'evt_1', limit: 10 }),
    'GET /notifications/subscriptions/sub_1/attempts?event_id=evt_1&limit=10',
  ],
  [
    'notifications.subscriptions.events.replay',
    (c) => c.notifications.subscriptions.events.replay('sub_1', 'evt_1'),
    'POST /notifications/subscriptions/sub_1/events/evt_1/replay',
  ],
];

describe('resources', () => {
  it.each(cases)('%s sends %s', async (_name, call, expected, body) => {
    const { fetch, calls } = mockFetch(() => json({}));
    const client = new AgentRuns({ apiKey: 'k', baseURL: 'http://api.test/api/v1', fetch: fetch as Fetch });
    await call(client);
    expect(calls).toHaveLength(1);
    const { request, body: sent } = calls[0]!;
    const url = new URL(request.url);
    expect(`${request.method} ${url.pathname.replace('/api/v1', '')}${url.search}`).toBe(expected);
    if (body === undefined) expect(sent).toBe('');
    else expect(JSON.parse(sent)).toEqual(body);
  });
});
