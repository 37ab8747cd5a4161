/**
 * Outbound notifications from state change to receiver, on SQLite and PostgreSQL: every state of a run in
 * order, the filters, retries with backoff, the 24-hour give-up, automatic disabling, secret rotation and
 * replay. Receivers are real HTTP servers on 127.0.0.1 that verify each delivery with `standardwebhooks`;
 * time moves with the injected clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runner } from '../../src/engine/runner';
import { retryDelayMs } from '../../src/notifications/delivery';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem } from '../support/http';
import { createRun, startNotificationWorld, verifyDelivery, type NotificationWorld } from './helpers';

const HOUR = 3_600_000;

/** Succeeds, except runs whose prompt starts with "fail", which FAIL. */
const testRunner: Runner = {
  name: 'echo',
  async run(ctx) {
    if (ctx.input.kind === 'initial' && ctx.input.prompt.startsWith('fail')) {
      return { state: 'FAILED', statusMessage: { message: 'asked to fail', error_code: 'test_failure', retryable: false } };
    }
    return { state: 'SUCCEEDED' };
  },
};

describe('retry delays', () => {
  const settings = { retryBaseSeconds: 5, retryMaxDelaySeconds: 3600 };
  it('double per attempt from the base, up to the cap, with jitter between half and all of the delay', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(settings, n, () => 1 - Number.EPSILON))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(settings, n, () => 0))).toEqual([2500, 5000, 10_000, 20_000]);
    expect(retryDelayMs(settings, 30, () => 0.5)).toBe(2_700_000);
    expect(retryDelayMs(settings, 5000, () => 1 - Number.EPSILON)).toBe(3_600_000);
  });
});

describe.each(testDatabases())('outbound notifications (%s)', (kind) => {
  let world: NotificationWorld;
  afterEach(async () => {
    await world?.close();
  });

  it('sends every state of a run, its creation included, in order, signed, with the documented envelope and without the prompt', async () => {
    world = await startNotificationWorld(kind, { engine: { runner: testRunner } });
    const { uid, secret } = await world.subscribe({ event_types: ['run.state_changed', 'run.succeeded'] });
    const runId = await createRun(world.admin, { prompt: 'A prompt that stays with the team', title: 'Nightly report', metadata: { ticket: 'T-1' } });
    const received = await world.receiver.waitFor(5);

    const events = received.map((r) => verifyDelivery(r, secret, world.clock));
    expect(events.map((e) => [e.type, e.data.previous_state, e.data.state])).toEqual([
      ['run.state_changed', null, 'QUEUED'],
      ['run.state_changed', 'QUEUED', 'CLAIMED'],
      ['run.state_changed', 'CLAIMED', 'INPROGRESS'],
      ['run.state_changed', 'INPROGRESS', 'SUCCEEDED'],
      ['run.succeeded', 'INPROGRESS', 'SUCCEEDED'],
    ]);
    const sequences = events.map((e) => e.data.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(sequences[3]).toBe(sequences[4]);
    for (const [i, request] of received.entries()) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hooks');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('agent-runs-notifications/1');
      expect(request.headers['webhook-id']).toBe(events[i].id);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(request.body).not.toContain('A prompt that stays with the team');
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
    const run = (await world.admin.get(`/agent/runs/${runId}`)).body;
    expect(events[4]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      type: 'run.succeeded',
      timestamp: run.updated_at,
      data: {
        run_id: runId,
        title: 'Nightly report',
        state: 'SUCCEEDED',
        previous_state: 'INPROGRESS',
        source: 'API',
        factory_uid: null,
        automation_id: null,
        metadata: { ticket: 'T-1' },
        session_link: run.session_link,
        sequence: expect.any(Number),
        created_at: run.created_at,
        updated_at: run.updated_at,
      },
    });
    const attempts = await world.waitForAttempts(uid, 5);
    expect(attempts.every((a) => a.outcome === 'succeeded' && a.status_code === 204 && a.attempt === 1 && a.next_attempt_at === null)).toBe(true);
  });

  it('names the state before a change from several possible states (a cancel), and sends run.cancelled', async () => {
    world = await startNotificationWorld(kind);
    const { secret } = await world.subscribe({ event_types: ['run.state_changed', 'run.cancelled'] });
    const runId = await createRun(world.admin);
    await world.receiver.waitFor(1);
    expect((await world.admin.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
    const received = await world.receiver.waitFor(3);
    const events = received.map((r) => verifyDelivery(r, secret, world.clock));
    expect(events.map((e) => [e.type, e.data.previous_state, e.data.state, e.data.status_message?.message])).toEqual([
      ['run.state_changed', null, 'QUEUED', undefined],
      ['run.state_changed', 'QUEUED', 'CANCELLED', 'run cancelled on request'],
      ['run.cancelled', 'QUEUED', 'CANCELLED', 'run cancelled on request'],
    ]);
  });

  it('narrows by event type, factory and automation', async () => {
    world = await startNotificationWorld(kind, { engine: { runner: testRunner } });
    const { admin } = world;
    const factory = (await admin.post('/factories', { name: 'support' })).body.uid;
    const otherFactory = (await admin.post('/factories', { name: 'sales' })).body.uid;
    const webhook = (await admin.post(`/factories/${factory}/webhooks`, { name: 'tickets' })).body;
    const automation = (
      await admin.post(`/factories/${factory}/automations`, {
        name: 'triage',
        prompt: 'Triage it.',
        triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.uid] } }],
      })
    ).body.uid;
    // One receiver: each subscription's deliveries are told apart by the path.
    const base = world.receiver.url;
    const byFactory = await world.subscribe({ url: `${base}/factory`, event_types: ['run.succeeded'], filter: { factory_uid: factory } });
    await world.subscribe({ url: `${base}/automation`, event_types: ['run.succeeded'], filter: { automation_id: automation } });
    await world.subscribe({ url: `${base}/failures`, event_types: ['run.failed'] });
    const other = await world.subscribe({ url: `${base}/other`, event_types: ['run.state_changed'], filter: { factory_uid: otherFactory } });

    const apiRun = await createRun(admin, { prompt: 'plain' });
    const failedRun = await createRun(admin, { prompt: 'fail please' });
    const dispatched = (await admin.post(`/factories/${factory}/runs`, { prompt: 'dispatched' })).body.run_id;
    const delivered = await fetch(webhook.ingress_url, { method: 'POST', headers: { authorization: `Bearer ${webhook.secret}` }, body: '{"ticket": 1}' });
    expect(delivered.status).toBe(202);
    await world.receiver.waitFor(4);
    // Nothing more comes: every run is finished and its events were recorded with its changes.
    await Promise.all([apiRun, failedRun, dispatched].map((id) => waitForFinished(world, id)));
    await world.waitForAttempts(byFactory.uid, 2);

    const seen = (path: string) => world.receiver.received.filter((r) => r.path === `/hooks/${path}`).map((r) => JSON.parse(r.body));
    const automationRun = seen('automation')[0]?.data.run_id;
    expect(
      seen('factory')
        .map((e) => [e.type, e.data.run_id])
        .sort(),
    ).toEqual(
      [
        ['run.succeeded', automationRun],
        ['run.succeeded', dispatched],
      ].sort(),
    );
    expect(seen('automation').map((e) => [e.type, e.data.automation_id, e.data.factory_uid, e.data.source])).toEqual([
      ['run.succeeded', automation, factory, 'WEBHOOK'],
    ]);
    expect(seen('automation')[0].data.delivery_id).toMatch(/^dlv_/);
    expect(seen('failures').map((e) => [e.type, e.data.run_id, e.data.status_message])).toEqual([
      ['run.failed', failedRun, { message: 'asked to fail', error_code: 'test_failure', retryable: false }],
    ]);
    expect(seen('other')).toEqual([]);
    expect(await world.messages(other.uid)).toEqual([]);
  });

  it("retries a failing receiver with backoff, holds the run's later events back meanwhile, then delivers them in order", async () => {
    world = await startNotificationWorld(kind);
    const { uid, secret } = await world.subscribe({ event_types: ['run.state_changed', 'run.cancelled'] });
    world.receiver.script({ status: 500, body: 'database down' }, { status: 503, body: 'still down' });
    const start = world.clock.now().getTime();
    const runId = await createRun(world.admin);
    await world.waitForAttempts(uid, 1);
    expect((await world.admin.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);

    let [first] = await world.attempts(uid);
    expect(first).toMatchObject({ attempt: 1, outcome: 'retrying', status_code: 500, response_excerpt: 'database down', error: null });
    expect(first.latency_ms).toBeGreaterThanOrEqual(0);
    // 5 s doubled 0 times, three quarters of it with the jitter in the middle.
    expect(Date.parse(first.next_attempt_at) - start).toBe(3750);
    expect((await world.admin.get(`/notifications/subscriptions/${uid}`)).body.failing_since).toBe(first.attempted_at);

    world.clock.advance(3750);
    [first] = await world.waitForAttempts(uid, 2);
    expect(first).toMatchObject({ attempt: 2, outcome: 'retrying', status_code: 503, response_excerpt: 'still down' });
    // The cancel's events wait behind the QUEUED one: the claim that took its retry, made after they were
    // recorded and due, left them untouched.
    expect((await world.messages(uid)).map((m) => [m.event_type, m.attempts])).toEqual([
      ['run.state_changed', 2],
      ['run.state_changed', 0],
      ['run.cancelled', 0],
    ]);
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempted_at)).toBe(7500);

    world.clock.advance(7500);
    const attempts = await world.waitForAttempts(uid, 5);
    expect(attempts.map((a) => [a.event_type, a.attempt, a.outcome])).toEqual([
      ['run.cancelled', 1, 'succeeded'],
      ['run.state_changed', 1, 'succeeded'],
      ['run.state_changed', 3, 'succeeded'],
      ['run.state_changed', 2, 'retrying'],
      ['run.state_changed', 1, 'retrying'],
    ]);
    const events = world.receiver.received.map((r) => verifyDelivery(r, secret, world.clock));
    expect(events.map((e) => [e.type, e.data.state])).toEqual([
      ['run.state_changed', 'QUEUED'],
      ['run.state_changed', 'QUEUED'],
      ['run.state_changed', 'QUEUED'],
      ['run.state_changed', 'CANCELLED'],
      ['run.cancelled', 'CANCELLED'],
    ]);
    // Every attempt of an event carries its id and body; only the timestamp and signature change.
    expect(new Set(world.receiver.received.slice(0, 3).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(world.receiver.received.slice(0, 3).map((r) => r.body)).size).toBe(1);
    expect((await world.admin.get(`/notifications/subscriptions/${uid}`)).body.failing_since).toBeNull();
  });

  it("gives an event up after its 24-hour window, with a last attempt at its end, then sends the run's next event", async () => {
    world = await startNotificationWorld(kind);
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    world.receiver.fallback = { status: 503 };
    const start = world.clock.now().getTime();
    const runId = await createRun(world.admin);
    const attempts = await driveUntilFailed(world, uid, 1);

    const times = attempts.map((a) => Date.parse(a.attempted_at) - start).reverse();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Each gap doubles (three quarters of 5 s × 2^n) up to three quarters of the 1-hour cap; the last is cut at the window's end.
    const expected = gaps.slice(0, -1).map((_, n) => Math.min(5000 * 2 ** n, HOUR) * 0.75);
    expect(gaps.slice(0, -1)).toEqual(expected);
    expect(times.at(-1)).toBe(24 * HOUR);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', next_attempt_at: null, status_code: 503 });
    expect(attempts.slice(1).every((a) => a.outcome === 'retrying' && Date.parse(a.next_attempt_at) - start <= 24 * HOUR)).toBe(true);
    expect((await world.messages(uid)).map((m) => m.status)).toEqual(['failed']);

    // Nothing more for that event; the run's next one goes (and is retried on its own window).
    world.receiver.fallback = { status: 204 };
    expect((await world.admin.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
    const after = await world.waitForAttempts(uid, attempts.length + 1);
    expect(after[0]).toMatchObject({ outcome: 'succeeded', attempt: 1 });
    expect(JSON.parse(world.receiver.received.at(-1)!.body).data.state).toBe('CANCELLED');
  });

  it('disables a subscription whose attempts all failed for the whole period, gives up what waits, records nothing more until re-enabled', async () => {
    world = await startNotificationWorld(kind, {
      env: { NOTIFICATIONS_DISABLE_AFTER_DAYS: '1', NOTIFICATIONS_RETRY_BASE_SECONDS: '3600', NOTIFICATIONS_RETRY_MAX_DELAY_SECONDS: '43200' },
    });
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    world.receiver.fallback = { status: 500 };
    const runId = await createRun(world.admin);
    await world.waitForAttempts(uid, 1);
    expect((await world.admin.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
    const attempts = await driveUntilFailed(world, uid, 1);
    const queuedEvent = attempts.at(-1)!.event_id;
    const sent = attempts.filter((a) => a.event_id === queuedEvent);

    // The last attempt of the first event ended a day of failures: disabled, with the reason.
    const view = (await world.admin.get(`/notifications/subscriptions/${uid}`)).body;
    expect(view).toMatchObject({ enabled: false, disabled_reason: 'failing', failing_since: sent.at(-1).attempted_at, disabled_at: sent[0].attempted_at });
    expect(sent[0]).toMatchObject({ outcome: 'failed', attempted_at: new Date(Date.parse(sent.at(-1).attempted_at) + 24 * HOUR).toISOString() });
    // The cancel's event, waiting behind it, is given up without being sent.
    const all = await world.waitForLog(uid, (found) => found.some((a) => a.event_id !== queuedEvent));
    expect(all[0]).toMatchObject({
      attempt: 1,
      outcome: 'failed',
      status_code: null,
      latency_ms: null,
      response_excerpt: null,
      error: 'not sent: the subscription is disabled',
    });
    expect(world.receiver.received).toHaveLength(sent.length);
    // A disabled subscription records nothing.
    const later = await createRun(world.admin);
    expect((await world.messages(uid)).filter((m) => m.run_id === later)).toEqual([]);

    world.receiver.fallback = { status: 204 };
    const enabled = await world.admin.request('PATCH', `/notifications/subscriptions/${uid}`, { body: { enabled: true } });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
    const next = await createRun(world.admin);
    await world.waitForAttempts(uid, all.length + 1);
    expect(JSON.parse(world.receiver.received.at(-1)!.body).data.run_id).toBe(next);
  });

  it('a manual disable is `manual`; the events waiting are given up with an entry that says so', async () => {
    world = await startNotificationWorld(kind);
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    world.receiver.fallback = { status: 500 };
    await createRun(world.admin);
    await world.waitForAttempts(uid, 1);
    const disabled = await world.admin.request('PATCH', `/notifications/subscriptions/${uid}`, { body: { enabled: false } });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: 'manual', disabled_at: world.clock.now().toISOString() });
    world.clock.advance(HOUR);
    const [last] = await world.waitForAttempts(uid, 2);
    expect(last).toMatchObject({ attempt: 2, outcome: 'failed', error: 'not sent: the subscription is disabled' });
    expect(world.receiver.received).toHaveLength(1);
  });

  it('signs with the new and the previous secret during the rotation overlap, then with the new one alone', async () => {
    world = await startNotificationWorld(kind);
    const { uid, secret: first } = await world.subscribe({ event_types: ['run.state_changed'] });
    const rotated = await world.admin.post(`/notifications/subscriptions/${uid}/rotate-secret`, {});
    expect(rotated.status, rotated.text).toBe(200);
    const second = rotated.body.secret as string;
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(second).not.toBe(first);
    expect(rotated.body.previous_secret_expires_at).toBe(new Date(world.clock.now().getTime() + 24 * HOUR).toISOString());

    const runId = await createRun(world.admin);
    const [during] = await world.receiver.waitFor(1);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyDelivery(during!, second, world.clock).data.run_id).toBe(runId);
    expect(verifyDelivery(during!, first, world.clock).data.run_id).toBe(runId);

    world.clock.advance(24 * HOUR + 1000);
    expect((await world.admin.get(`/notifications/subscriptions/${uid}`)).body.previous_secret_expires_at).toBeNull();
    await world.admin.post(`/agent/runs/${runId}/cancel`);
    const [, after] = await world.receiver.waitFor(2);
    expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyDelivery(after!, second, world.clock).data.state).toBe('CANCELLED');
    expect(() => verifyDelivery(after!, first, world.clock)).toThrow(/signature/i);

    // Two rotations within an overlap: only the secret just replaced still signs.
    const third = (await world.admin.post(`/notifications/subscriptions/${uid}/rotate-secret`)).body.secret;
    const fourth = (await world.admin.post(`/notifications/subscriptions/${uid}/rotate-secret`)).body.secret;
    await createRun(world.admin);
    const [, , last] = await world.receiver.waitFor(3);
    expect(verifyDelivery(last!, fourth, world.clock)).toBeTruthy();
    expect(verifyDelivery(last!, third, world.clock)).toBeTruthy();
    expect(() => verifyDelivery(last!, second, world.clock)).toThrow(/signature/i);
  });

  it('replays an event: a fresh attempt now, same id and body, numbered on; refused for other teams, disabled subscriptions and members', async () => {
    world = await startNotificationWorld(kind);
    const { uid, secret } = await world.subscribe({ event_types: ['run.state_changed'] });
    await createRun(world.admin);
    const [original] = await world.receiver.waitFor(1);
    const eventId = original!.headers['webhook-id'] as string;
    world.clock.advance(HOUR);

    const replayed = await world.admin.post(`/notifications/subscriptions/${uid}/events/${eventId}/replay`);
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body).toEqual({ event_id: eventId, subscription_uid: uid, next_attempt_at: world.clock.now().toISOString() });
    const [, again] = await world.receiver.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(eventId);
    expect(again!.body).toBe(original!.body);
    expect(again!.headers['webhook-timestamp']).not.toBe(original!.headers['webhook-timestamp']);
    verifyDelivery(again!, secret, world.clock);
    const attempts = await world.waitForAttempts(uid, 2);
    expect(attempts.map((a) => [a.event_id, a.attempt, a.outcome])).toEqual([
      [eventId, 2, 'succeeded'],
      [eventId, 1, 'succeeded'],
    ]);
    expect(await world.attempts(uid, `&event_id=${eventId}`)).toHaveLength(2);

    expectProblem(await world.member.post(`/notifications/subscriptions/${uid}/events/${eventId}/replay`), 403, 'not_authorized');
    expectProblem(await world.admin.post(`/notifications/subscriptions/${uid}/events/evt_01hzx3k4m5n6p7q8r9s0t1v2w3/replay`), 404, 'resource_not_found');
    const stranger = await world.server.createTeamWithKey('stranger');
    const strangerClient = apiClient(world.server.apiUrl, stranger.apiKey);
    expectProblem(await strangerClient.post(`/notifications/subscriptions/${uid}/events/${eventId}/replay`), 404, 'resource_not_found');
    await world.admin.request('PATCH', `/notifications/subscriptions/${uid}`, { body: { enabled: false } });
    expectProblem(await world.admin.post(`/notifications/subscriptions/${uid}/events/${eventId}/replay`), 409, 'conflict');
  });
});

/** Moves the clock to each next attempt of the latest event until `count` events have failed; answers the log, newest first. */
async function driveUntilFailed(world: NotificationWorld, uid: string, count: number): Promise<any[]> {
  let attempts = await world.waitForAttempts(uid, 1);
  for (let guard = 0; guard < 200; guard++) {
    if (attempts.filter((a) => a.outcome === 'failed').length >= count) return attempts;
    const latest = attempts[0];
    expect(latest.outcome, JSON.stringify(latest)).toBe('retrying');
    world.clock.set(Date.parse(latest.next_attempt_at));
    attempts = await world.waitForAttempts(uid, attempts.length + 1);
  }
  throw new Error('the event never failed');
}

async function waitForFinished(world: NotificationWorld, runId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = (await world.admin.get(`/agent/runs/${runId}`)).body;
    if (['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'].includes(run.state)) return;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
