/**
 * Delivery-log retention (ManualClock, no sleeping), on SQLite and PostgreSQL: per webhook the newest
 * DELIVERY_RETENTION_MINIMUM entries and everything from the last DELIVERY_RETENTION_DAYS days are kept;
 * identities are forgotten together with their Accepted entry; stale rate-limit windows are dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { pruneDeliveryLog } from '../../src/ingress/retention';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, send, type RestClient } from '../webhooks/helpers';

const DAY = 86_400_000;

describe.each(testDatabases())('delivery log retention (%s)', (kind) => {
  let server: TestServer;
  let api: RestClient;
  let factory: string;
  const clock = new ManualClock(new Date('2026-03-01T00:00:00.000Z'));

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      clock,
      engine: false,
      // A small minimum keeps the test short; the rule is the same as with the default 50.
      env: { DELIVERY_RETENTION_MINIMUM: '5', DELIVERY_RETENTION_DAYS: '7', INGRESS_DELIVERIES_PER_MINUTE: '1000' },
    });
    api = restClient(server, server.adminKey);
    factory = await api.createFactory('retention');
  });
  afterAll(() => server?.close());

  async function deliver(wh: any, body: string, headers: Record<string, string> = {}) {
    const res = await send(wh.ingress_url, body, { headers: { authorization: `Bearer ${wh.secret}`, ...headers } });
    return res.body?.delivery_id as string | undefined;
  }

  it('keeps the newest N per webhook and the last 7 days; deletes the rest; forgets pruned identities', async () => {
    const busy = await api.createWebhook(factory, { name: 'busy' });
    const quiet = await api.createWebhook(factory, { name: 'quiet' });
    const recent = await api.createWebhook(factory, { name: 'recent' });
    const start = clock.now().getTime();

    // 20 days ago: 8 entries on busy (one of them rejected), 3 on quiet.
    const busyOld: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(60_000);
      busyOld.push((await deliver(busy, JSON.stringify({ old: i })))!);
    }
    clock.advance(60_000);
    await send(busy.ingress_url, '{}', { headers: { authorization: 'Bearer wrong' } });
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await deliver(quiet, JSON.stringify({ q: i }));
    }
    // 20 days later: 2 recent entries on busy, 7 on recent (more than the minimum, all inside 7 days).
    clock.set(start + 20 * DAY);
    const busyNew = [(await deliver(busy, '{"new":0}'))!, (await deliver(busy, '{"new":1}'))!];
    for (let i = 0; i < 7; i++) {
      clock.advance(3_600_000);
      await deliver(recent, JSON.stringify({ r: i }));
    }

    // Batches of 2: the 5 deletions take three statements, and the rule holds across them.
    const result = await pruneDeliveryLog(server.ctx, { batchSize: 2 });
    expect(result.deliveriesDeleted).toBe(5); // busy: 10 entries, 2 recent + 3 newest old ones kept

    const busyLeft = await api.deliveries(factory, busy.uid);
    expect(busyLeft).toHaveLength(5);
    expect(busyLeft.slice(0, 2).map((d) => d.delivery_id)).toEqual([busyNew[1], busyNew[0]]);
    expect(busyLeft.slice(2).map((d) => d.label)).toEqual(['Rejected (auth)', 'Accepted', 'Accepted']);
    expect(busyLeft.slice(3).map((d) => d.delivery_id)).toEqual([busyOld[6], busyOld[5]]);
    expect(await api.deliveries(factory, quiet.uid)).toHaveLength(3);
    expect(await api.deliveries(factory, recent.uid)).toHaveLength(7);
    const gone = await api.get(`/factories/${factory}/webhooks/${busy.uid}/deliveries/${busyOld[0]}`);
    expect(gone.status).toBe(404);
    // Running again deletes nothing more.
    expect((await pruneDeliveryLog(server.ctx)).deliveriesDeleted).toBe(0);

    // A pruned Accepted entry takes its identity with it: the same body is new again; a kept one is not.
    expect((await api.delivery(factory, busy.uid, (await deliver(busy, JSON.stringify({ old: 0 })))!)).label).toBe('Accepted');
    expect((await api.delivery(factory, busy.uid, (await deliver(busy, JSON.stringify({ old: 6 })))!)).label).toBe('Duplicate');
  });

  it('keeps entries of deleted webhooks readable until they age out like any other', async () => {
    const wh = await api.createWebhook(factory, { name: 'deleted-later' });
    for (let i = 0; i < 7; i++) {
      clock.advance(60_000);
      await deliver(wh, JSON.stringify({ d: i }));
    }
    await api.delete(`/factories/${factory}/webhooks/${wh.uid}`);
    await pruneDeliveryLog(server.ctx);
    expect(await api.deliveries(factory, wh.uid)).toHaveLength(7);
    clock.advance(8 * DAY);
    await pruneDeliveryLog(server.ctx);
    expect(await api.deliveries(factory, wh.uid)).toHaveLength(5);
  });

  it('drops rate-limit counter windows no limiter reads any more', async () => {
    const wh = await api.createWebhook(factory, { name: 'counters' });
    await deliver(wh, '{"c":1}');
    const key = `deliveries:${wh.uid}`;
    const count = async () => (await server.ctx.db.selectFrom('rate_limit_counters').select('window_start').where('key', '=', key).execute()).length;
    expect(await count()).toBe(1);
    clock.advance(60_000); // still the previous window of the next one: kept
    await pruneDeliveryLog(server.ctx);
    expect(await count()).toBe(1);
    clock.advance(120_000);
    const { countersDeleted } = await pruneDeliveryLog(server.ctx);
    expect(countersDeleted).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
  });
});
