/**
 * The dedup guard is the database's unique index, not a check-then-insert: identical deliveries fired in
 * parallel produce exactly one Accepted entry and Duplicates naming it, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, send, type RestClient } from '../webhooks/helpers';

describe.each(testDatabases())('parallel duplicate deliveries (%s)', (kind) => {
  let server: TestServer;
  let api: RestClient;
  let factory: string;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, engine: false });
    api = restClient(server, server.adminKey);
    factory = await api.createFactory('race');
  });
  afterAll(() => server?.close());

  async function fire(wh: any, count: number, body: (i: number) => string, headers: (i: number) => Record<string, string>) {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(wh.ingress_url, body(i), { headers: headers(i) })));
    expect(answers.map((a) => a.status)).toEqual(Array(count).fill(202));
    const ids = answers.map((a) => a.body.delivery_id as string);
    expect(new Set(ids).size).toBe(count); // every answer names its own log entry
    return ids;
  }

  it('20 identical bodies at once → exactly 1 Accepted and 19 Duplicate of it', async () => {
    const wh = await api.createWebhook(factory, { name: 'same-body' });
    const auth = { authorization: `Bearer ${wh.secret}` };
    const ids = await fire(
      wh,
      20,
      () => '{"event":"push","sha":"abc"}',
      () => auth,
    );
    const entries = await api.deliveries(factory, wh.uid);
    expect(entries.map((e) => e.delivery_id).sort()).toEqual([...ids].sort());
    const accepted = entries.filter((e) => e.label === 'Accepted');
    const duplicates = entries.filter((e) => e.label === 'Duplicate');
    expect(accepted).toHaveLength(1);
    expect(duplicates).toHaveLength(19);
    expect(new Set(duplicates.map((d) => d.duplicate_of))).toEqual(new Set([accepted[0].delivery_id]));
  });

  it('20 different bodies with one X-Service-Delivery-Id at once → 1 Accepted, 19 Duplicate', async () => {
    const wh = await api.createWebhook(factory, { name: 'same-id' });
    await fire(
      wh,
      20,
      (i) => JSON.stringify({ attempt: i }),
      () => ({ authorization: `Bearer ${wh.secret}`, 'x-service-delivery-id': 'evt-42' }),
    );
    const labels = (await api.deliveries(factory, wh.uid)).map((e) => e.label);
    expect(labels.filter((l) => l === 'Accepted')).toHaveLength(1);
    expect(labels.filter((l) => l === 'Duplicate')).toHaveLength(19);
  });

  it('20 distinct deliveries at once are all Accepted', async () => {
    const wh = await api.createWebhook(factory, { name: 'distinct' });
    await fire(
      wh,
      20,
      (i) => JSON.stringify({ n: i }),
      () => ({ authorization: `Bearer ${wh.secret}` }),
    );
    const labels = (await api.deliveries(factory, wh.uid)).map((e) => e.label);
    expect(labels).toEqual(Array(20).fill('Accepted'));
  });
});
