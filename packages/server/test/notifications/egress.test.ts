/**
 * Where notifications may go (docs/decisions.md §Outbound notifications), on SQLite and PostgreSQL: URLs
 * refused when they are set (400 naming `$.url`), the egress guard's connect-time refusal of a name that
 * resolves to loopback, redirects never followed (not even to where the guard would refuse), and what a
 * hostile or broken receiver can make of an attempt (timeouts, refused connections, huge or binary answers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { expectProblem } from '../support/http';
import { createRun, startNotificationWorld, startReceiver, type NotificationWorld, type Receiver } from './helpers';

const REFUSED_EVERYWHERE = [
  ['https://127.0.0.1/hooks', /loopback/],
  ['https://10.0.0.7/hooks', /private/],
  ['https://192.168.1.20:8443/hooks', /private/],
  ['https://169.254.169.254/latest/meta-data', /link-local/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://[::1]/hooks', /loopback/],
  ['https://[fd00::1]/hooks', /unique local/],
  ['https://[::ffff:10.0.0.1]/hooks', /private/],
  ['https://0x7f.0.0.1/hooks', /loopback/],
  ['https://0.0.0.0/', /unspecified/],
  ['http://hooks.example.com/', /https/],
  ['ftp://hooks.example.com/', /https/],
  ['https://user:password@hooks.example.com/', /user name or password/],
  ['https://hooks.example.com/#fragment', /fragment/],
  ['hooks.example.com/path', /absolute URL/],
] as const;

describe.each(testDatabases())('notification targets (%s)', (kind) => {
  let world: NotificationWorld;
  const extra: Receiver[] = [];
  afterEach(async () => {
    await world?.close();
    await Promise.all(extra.splice(0).map((r) => r.close()));
  });

  it('refuses, when a URL is set, what is not https or points at an internal address, naming $.url', async () => {
    world = await startNotificationWorld(kind, {}, { allowedHosts: () => '' });
    for (const [url, reason] of REFUSED_EVERYWHERE) {
      const res = await world.admin.post('/notifications/subscriptions', { url, event_types: ['run.state_changed'] });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors, url).toEqual([{ path: '$.url', message: expect.stringMatching(reason) }]);
    }
    const tooLong = await world.admin.post('/notifications/subscriptions', {
      url: `https://hooks.example.com/${'a'.repeat(2048)}`,
      event_types: ['run.state_changed'],
    });
    expectProblem(tooLong, 400, 'invalid_request');
    expect(JSON.stringify(tooLong.body.errors)).toContain('url');

    const ok = await world.admin.post('/notifications/subscriptions', {
      url: 'https://Hooks.Example.com:8443/agent?team=a',
      event_types: ['run.state_changed'],
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.url).toBe('https://hooks.example.com:8443/agent?team=a');
    // The same rules on update.
    const moved = await world.admin.request('PATCH', `/notifications/subscriptions/${ok.body.uid}`, { body: { url: 'https://[::1]:9/' } });
    expectProblem(moved, 400, 'invalid_request');
    expect(moved.body.errors).toEqual([{ path: '$.url', message: expect.stringMatching(/loopback/) }]);
  });

  it('allows plain http and an internal address only where the operator listed that exact IP (and port)', async () => {
    world = await startNotificationWorld(kind, {}, { allowedHosts: (r) => `127.0.0.1:${r.port}, hooks.example.com` });
    expect((await world.admin.post('/notifications/subscriptions', { url: world.receiver.url, event_types: ['run.state_changed'] })).status).toBe(201);
    expect((await world.admin.post('/notifications/subscriptions', { url: 'http://hooks.example.com/in', event_types: ['run.state_changed'] })).status).toBe(
      201,
    );
    for (const url of [
      `http://127.0.0.1:${world.receiver.port + 1}/hooks`,
      `https://127.0.0.1:${world.receiver.port + 1}/hooks`,
      'http://other.example.com/',
    ]) {
      expectProblem(await world.admin.post('/notifications/subscriptions', { url, event_types: ['run.state_changed'] }), 400, 'invalid_request');
    }
  });

  it('refuses at connect time a name that resolves to loopback: nothing reaches the receiver', async () => {
    world = await startNotificationWorld(kind, {}, { allowedHosts: () => '' });
    const { uid } = await world.subscribe({ url: `https://localhost:${world.receiver.port}/hooks`, event_types: ['run.state_changed'] });
    await createRun(world.admin);
    const [attempt] = await world.waitForAttempts(uid, 1);
    expect(attempt).toMatchObject({ outcome: 'retrying', status_code: null, response_excerpt: null });
    expect(attempt.error).toMatch(/^refused by the egress policy: (127\.0\.0\.1|::1) is a loopback address$/);
    expect(world.receiver.received).toEqual([]);
  });

  it('does not follow a redirect, not even one to a private address or to a port the operator did not list', async () => {
    const trap = await startReceiver();
    extra.push(trap);
    world = await startNotificationWorld(kind, {}, { allowedHosts: (r) => `127.0.0.1:${r.port}` });
    world.receiver.script(
      { status: 302, headers: { location: `http://127.0.0.1:${trap.port}/hooks` } },
      { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    );
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    await createRun(world.admin);
    let [attempt] = await world.waitForAttempts(uid, 1);
    expect(attempt).toMatchObject({ outcome: 'retrying', status_code: 302, error: `redirect not followed (Location: http://127.0.0.1:${trap.port}/hooks)` });
    world.clock.set(Date.parse(attempt.next_attempt_at));
    [attempt] = await world.waitForAttempts(uid, 2);
    expect(attempt).toMatchObject({
      outcome: 'retrying',
      status_code: 307,
      error: 'redirect not followed (Location: http://169.254.169.254/latest/meta-data/)',
    });
    world.clock.set(Date.parse(attempt.next_attempt_at));
    [attempt] = await world.waitForAttempts(uid, 3);
    expect(attempt).toMatchObject({ outcome: 'succeeded', status_code: 204, attempt: 3 });
    expect(trap.received).toEqual([]);
    expect(world.receiver.received).toHaveLength(3);
  });

  it('records what a broken or hostile receiver makes of an attempt, bounded, and retries', async () => {
    world = await startNotificationWorld(kind, { env: { NOTIFICATIONS_TIMEOUT_SECONDS: '3', NOTIFICATIONS_RESPONSE_EXCERPT_BYTES: '64' } });
    world.receiver.script({ status: 500, body: 'x'.repeat(1_000_000) }, { status: 502, body: 'nul \u0000 byte and \u00e9' }, { status: 200, delayMs: 10_000 });
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    await createRun(world.admin);
    const next = async (count: number) => {
      const [attempt] = await world.waitForAttempts(uid, count);
      if (attempt.next_attempt_at) world.clock.set(Date.parse(attempt.next_attempt_at));
      return attempt;
    };
    expect(await next(1)).toMatchObject({ status_code: 500, response_excerpt: 'x'.repeat(64), outcome: 'retrying' });
    expect(await next(2)).toMatchObject({ status_code: 502, response_excerpt: 'nul \uFFFD byte and \u00e9', outcome: 'retrying' });
    expect(await next(3)).toMatchObject({ status_code: null, error: 'timed out after 3 s', response_excerpt: null, outcome: 'retrying' });
    expect((await next(4)).outcome).toBe('succeeded');

    // Nothing listens there: the connection is refused.
    const closed = await startReceiver();
    await closed.close();
    const gone = await world.admin.post('/notifications/subscriptions', { url: closed.url, event_types: ['run.state_changed'] });
    expect(gone.status).toBe(201);
    await createRun(world.admin);
    const [refused] = await world.waitForAttempts(gone.body.uid, 1);
    expect(refused).toMatchObject({ status_code: null, error: 'connection failed: ECONNREFUSED', outcome: 'retrying' });
  });
});
