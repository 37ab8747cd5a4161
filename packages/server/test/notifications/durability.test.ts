/**
 * The outbox's promises, on SQLite and PostgreSQL: an event recorded with its state change survives a crash
 * (SIGKILL of a real server process) and is delivered by the next one; a state change that rolls back
 * leaves no event; an attempt whose worker died is made again once its lease expires; and two delivery
 * workers on one database never deliver one attempt twice, nor a run's events out of order.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../bench/server-process';
import { toTimestamp } from '../../src/clock';
import { claimDueMessagesServiceWide } from '../../src/notifications/repository';
import { pruneNotifications } from '../../src/notifications/retention';
import { insertQueuedRun } from '../../src/runs/service';
import { transitionInTransaction } from '../../src/runs/transitions';
import { testDatabases, type TestDatabase } from '../support/databases';
import { apiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';
import { createRun, startNotificationWorld, startReceiver, verifyDelivery, type NotificationWorld, type Receiver } from './helpers';

// Servers as child processes that compile their TypeScript (tsx) as they start: on a busy machine that alone can pass 30 s.
describe.each(testDatabases())('the notification outbox (%s)', { timeout: 120_000 }, (kind) => {
  let world: NotificationWorld | undefined;
  let second: TestServer | undefined;
  let database: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  const processes: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.stop()));
    await second?.close();
    await world?.close();
    await database?.close();
    await receiver?.close();
    [world, second, database, receiver] = [undefined, undefined, undefined, undefined];
  });

  it('delivers, after a crash, the event a killed server recorded with the state change', async () => {
    database = await kind.create();
    receiver = await startReceiver();
    const settings = {
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1',
      SANDBOX: 'none',
    };
    // An API process only: it records events but delivers none.
    const api = await startServerProcess({ ...settings, ROLE: 'api' });
    processes.push(api);
    const client = apiClient(api.apiUrl, api.adminKey);
    const subscription = await client.post('/notifications/subscriptions', { url: receiver.url, event_types: ['run.state_changed'] });
    expect(subscription.status, subscription.text).toBe(201);
    const runId = await createRun(client);
    process.kill(api.pid, 'SIGKILL');
    await api.stop();
    expect(receiver.received).toEqual([]);

    // A new process with the worker role finds the event in the outbox and delivers it (then the run's others).
    processes.push(await startServerProcess({ ...settings, ROLE: 'worker', ECHO_DELAY_MS: '0' }));
    const [first] = await receiver.waitFor(1, 30_000);
    const event = verifyDelivery(first!, subscription.body.secret, { now: () => new Date() });
    expect(event).toMatchObject({ type: 'run.state_changed', data: { run_id: runId, state: 'QUEUED', previous_state: null } });
    const states = (await receiver.waitFor(4, 30_000)).map((r) => JSON.parse(r.body).data.state);
    expect(states).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
  });

  it('records no event for a state change or a run insert that rolls back', async () => {
    world = await startNotificationWorld(kind);
    const { server } = world;
    const { uid } = await world.subscribe({ event_types: ['run.state_changed', 'run.cancelled'] });
    const runId = await createRun(world.admin);
    await world.waitForAttempts(uid, 1);
    const team = await server.ctx.db.selectFrom('runs').select('team_id').where('id', '=', runId).executeTakeFirstOrThrow();

    const rollback = new Error('rolled back on purpose');
    await expect(
      server.ctx.db.transaction().execute(async (tx) => {
        const cancelled = await transitionInTransaction(tx, server.ctx.notificationOutbox, world!.clock.now(), team.team_id, runId, {
          from: ['QUEUED'],
          to: 'CANCELLED',
        });
        expect(cancelled.ok).toBe(true);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    await expect(
      server.ctx.db.transaction().execute(async (tx) => {
        await insertQueuedRun(tx, server.ctx, {
          teamId: team.team_id,
          title: 'never',
          prompt: 'never',
          source: 'API',
          creator: { type: 'service_account', uid: 'key_test', display_name: 'test' },
          requestedConfig: undefined,
          resolvedConfig: { name: 'never' } as never,
          attachments: [],
        });
        throw rollback;
      }),
    ).rejects.toBe(rollback);

    // The outbox rows are the only thing delivered, and they commit with the change: none now, none ever.
    expect((await world.messages(uid)).map((m) => [m.run_id, m.status])).toEqual([[runId, 'succeeded']]);
    // The run is still QUEUED; a committed cancel does produce its events.
    expect((await world.admin.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
    expect((await world.receiver.waitFor(3)).map((r) => JSON.parse(r.body).type)).toEqual(['run.state_changed', 'run.state_changed', 'run.cancelled']);
    expect((await world.messages(uid)).map((m) => m.run_id)).toEqual([runId, runId, runId]);
  });

  it('makes the attempt of a worker that died again once its lease expired', async () => {
    world = await startNotificationWorld(kind, { notificationDelivery: false, env: { NOTIFICATIONS_TIMEOUT_SECONDS: '15' } });
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    await createRun(world.admin);
    const now = world.clock.now();
    const claim = (workerId: string) =>
      claimDueMessagesServiceWide(world!.server.ctx.db, {
        workerId,
        now: toTimestamp(world!.clock.now()),
        leaseExpiresAt: toTimestamp(new Date(world!.clock.now().getTime() + 45_000)),
        limit: 10,
      });
    // A worker claims the attempt and dies before sending it.
    expect((await claim('dead-worker')).map((m) => m.attempts)).toEqual([1]);
    expect(await claim('live-worker')).toEqual([]);
    world.clock.set(now.getTime() + 44_999);
    expect(await claim('live-worker')).toEqual([]);

    // Past the lease, a delivery worker takes it over: attempt 2 is the first that reaches the receiver.
    world.clock.set(now.getTime() + 45_000);
    second = await startTestServer({ sharing: world.server, clock: world.clock, engine: false, env: { NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' } });
    second.notificationDelivery!.wake();
    const [attempt] = await world.waitForAttempts(uid, 1);
    expect(attempt).toMatchObject({ attempt: 2, outcome: 'succeeded' });
    expect(world.receiver.received).toHaveLength(1);
  });

  it('retention drops attempts and finished events past NOTIFICATIONS_RETENTION_DAYS, never a pending one', async () => {
    // Workers run when woken (the test wakes them), never on a poll: nothing is attempted behind its back.
    world = await startNotificationWorld(kind, {
      env: { NOTIFICATIONS_RETENTION_DAYS: '30' },
      notificationDelivery: { random: () => 0.5, pollIntervalMs: 3_600_000 },
    });
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    await createRun(world.admin);
    const [delivered] = await world.waitForAttempts(uid, 1);
    world.clock.advance(29 * 86_400_000);
    // A later event that keeps failing stays pending.
    world.receiver.fallback = { status: 500 };
    const failing = await createRun(world.admin);
    await world.waitForAttempts(uid, 2);

    world.clock.advance(86_400_000 + 1000);
    const pruned = await pruneNotifications(world.server.ctx, { batchSize: 1 });
    expect(pruned).toEqual({ attempts: 1, messages: 1 });
    const attempts = await world.attempts(uid);
    expect(attempts.map((a) => a.run_id)).toEqual([failing]);
    expect((await world.messages(uid)).map((m) => [m.run_id, m.status])).toEqual([[failing, 'pending']]);
    const replay = await world.admin.post(`/notifications/subscriptions/${uid}/events/${delivered.event_id}/replay`);
    expect(replay.status).toBe(404);
  });

  it('concurrent claims through two connection pools never take one attempt twice', async () => {
    world = await startNotificationWorld(kind, { notificationDelivery: false });
    second = await startTestServer({ sharing: world.server, clock: world.clock, engine: false, notificationDelivery: false });
    await world.subscribe({ event_types: ['run.state_changed'] });
    await world.subscribe({ url: `${world.receiver.url}/second`, event_types: ['run.state_changed'] });
    await Promise.all(Array.from({ length: 40 }, () => createRun(world!.admin)));
    const claimers = [world.server.ctx, second.ctx, world.server.ctx, second.ctx].map(async (ctx, i) => {
      const taken: string[] = [];
      for (;;) {
        const now = world!.clock.now();
        const claimed = await claimDueMessagesServiceWide(ctx.db, {
          workerId: `claimer-${i}`,
          now: toTimestamp(now),
          leaseExpiresAt: toTimestamp(new Date(now.getTime() + 60_000)),
          limit: 3,
        });
        if (claimed.length === 0) return taken;
        expect(claimed.every((m) => m.lease_owner === `claimer-${i}` && m.attempts === 1)).toBe(true);
        taken.push(...claimed.map((m) => m.id));
      }
    });
    const taken = (await Promise.all(claimers)).flat();
    expect(taken).toHaveLength(80);
    expect(new Set(taken).size).toBe(80);
  });

  it("two delivery workers on one database never deliver one attempt twice, nor a run's events out of order", async () => {
    world = await startNotificationWorld(kind);
    second = await startTestServer({
      sharing: world.server,
      clock: world.clock,
      engine: false,
      notificationDelivery: {},
      env: { NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' },
    });
    const { uid, secret } = await world.subscribe({ event_types: ['run.state_changed', 'run.cancelled'] });
    // Slow answers, so both workers have attempts in flight at once.
    world.receiver.fallback = { status: 204, delayMs: 20 };
    const clients = [world.admin, apiClient(second.apiUrl, second.adminKey)];
    const runs = await Promise.all(Array.from({ length: 30 }, (_, i) => createRun(clients[i % 2]!)));
    await Promise.all(runs.map((runId, i) => clients[(i + 1) % 2]!.post(`/agent/runs/${runId}/cancel`)));
    const wakeBoth = setInterval(() => {
      world!.server.notificationDelivery!.wake();
      second!.notificationDelivery!.wake();
    }, 50);
    try {
      await world.receiver.waitFor(90, 30_000);
    } finally {
      clearInterval(wakeBoth);
    }
    // Stopped workers have finished every attempt in flight and claim nothing more: a second send of any
    // message would have arrived by now.
    await Promise.all([world.server.notificationDelivery!.stop(), second.notificationDelivery!.stop()]);

    const received = world.receiver.received;
    expect(received).toHaveLength(90);
    const ids = received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(90);
    const attempts = await world.attempts(uid);
    expect(attempts).toHaveLength(90);
    expect(attempts.every((a) => a.attempt === 1 && a.outcome === 'succeeded')).toBe(true);
    // Per run: QUEUED, CANCELLED, run.cancelled — each sent only after the previous one was answered.
    for (const runId of runs) {
      const mine = received.filter((r) => JSON.parse(r.body).data.run_id === runId);
      expect(
        mine.map((r) => {
          const e = verifyDelivery(r, secret, world!.clock);
          return `${e.type} ${e.data.state}`;
        }),
      ).toEqual(['run.state_changed QUEUED', 'run.state_changed CANCELLED', 'run.cancelled CANCELLED']);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.arrivedAt).toBeGreaterThanOrEqual(mine[i - 1]!.answeredAt);
    }
  });
});
