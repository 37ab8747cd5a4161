/**
 * The notification subscriptions API on SQLite and PostgreSQL: create (the secret shown once, encrypted at
 * rest), list with keyset pages, get, update, delete, roles, team isolation, hostile input answered with
 * 4xx problems, and secrets that never reach a log line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem } from '../support/http';
import { createRun, startNotificationWorld, verifyDelivery, type NotificationWorld } from './helpers';

const PATH = '/notifications/subscriptions';

describe.each(testDatabases())('notification subscriptions API (%s)', (kind) => {
  let world: NotificationWorld;
  afterEach(async () => {
    await world?.close();
  });

  it('creates with the secret shown once and encrypted at rest; lists, gets, updates and deletes without it', async () => {
    world = await startNotificationWorld(kind);
    const { admin } = world;
    const factory = (await admin.post('/factories', { name: 'support' })).body.uid;
    const created = await admin.post(PATH, {
      url: world.receiver.url,
      event_types: ['run.failed', 'run.error'],
      description: 'Alerts',
      filter: { factory_uid: factory },
    });
    expect(created.status, created.text).toBe(201);
    const now = world.clock.now().toISOString();
    expect(created.body).toEqual({
      uid: expect.stringMatching(/^sub_[0-9a-z]{26}$/),
      url: world.receiver.url,
      description: 'Alerts',
      event_types: ['run.failed', 'run.error'],
      filter: { factory_uid: factory, automation_id: null },
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { uid, secret } = created.body;
    const stored = await world.server.ctx.db.selectFrom('notification_subscriptions').select('secret').where('id', '=', uid).executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain(secret.slice('whsec_'.length));

    const { secret: _shownOnce, ...view } = created.body;
    expect((await admin.get(`${PATH}/${uid}`)).body).toEqual(view);
    expect((await world.member.get(`${PATH}/${uid}`)).body).toEqual(view);
    const listed = await world.member.get(PATH);
    expect(listed.body).toEqual({ subscriptions: [view], page_info: { has_next_page: false, next_cursor: null } });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    world.clock.advance(1000);
    const updated = await admin.request('PATCH', `${PATH}/${uid}`, {
      body: { description: null, event_types: ['run.state_changed'], filter: {}, url: `${world.receiver.url}/v2` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      description: null,
      event_types: ['run.state_changed'],
      filter: { factory_uid: null, automation_id: null },
      url: `${world.receiver.url}/v2`,
      updated_at: world.clock.now().toISOString(),
    });
    expect(updated.body.secret).toBeUndefined();
    // The new URL, event types and filter take the next state change; the secret is unchanged.
    await createRun(admin);
    const [delivery] = await world.receiver.waitFor(1);
    expect(delivery!.path).toBe('/hooks/v2');
    verifyDelivery(delivery!, secret, world.clock);

    expect((await admin.delete(`${PATH}/${uid}`)).status).toBe(204);
    expectProblem(await admin.get(`${PATH}/${uid}`), 404, 'resource_not_found');
    expectProblem(await admin.delete(`${PATH}/${uid}`), 404, 'resource_not_found');
    expectProblem(await admin.get(`${PATH}/${uid}/attempts`), 404, 'resource_not_found');
    expect(await world.messages(uid)).toEqual([]);
    expect(await world.server.ctx.db.selectFrom('notification_attempts').select('id').where('subscription_id', '=', uid).execute()).toEqual([]);
  });

  it('pages subscriptions and attempts newest first with cursors bound to their filters', async () => {
    world = await startNotificationWorld(kind);
    const uids: string[] = [];
    for (let i = 0; i < 3; i++) {
      uids.push((await world.subscribe({ url: `${world.receiver.url}/${i}`, event_types: ['run.state_changed'] })).uid);
      world.clock.advance(1000);
    }
    const first = await world.admin.get(`${PATH}?limit=2`);
    expect(first.body.subscriptions.map((s: any) => s.uid)).toEqual([uids[2], uids[1]]);
    expect(first.body.page_info.has_next_page).toBe(true);
    const rest = await world.admin.get(`${PATH}?limit=2&cursor=${first.body.page_info.next_cursor}`);
    expect(rest.body).toEqual({ subscriptions: [expect.objectContaining({ uid: uids[0] })], page_info: { has_next_page: false, next_cursor: null } });

    // One run's attempt logged before the next run starts, a second apart: the two runs' messages are
    // delivered independently, so made together their attempts could be logged in either order.
    const runs = [await createRun(world.admin)];
    await world.waitForAttempts(uids[0]!, 1);
    world.clock.advance(1000);
    runs.push(await createRun(world.admin));
    await world.waitForAttempts(uids[0]!, 2);
    const page = await world.admin.get(`${PATH}/${uids[0]}/attempts?limit=1`);
    expect(page.body.attempts).toHaveLength(1);
    expect(page.body.attempts[0].run_id).toBe(runs[1]);
    const next = await world.admin.get(`${PATH}/${uids[0]}/attempts?limit=1&cursor=${page.body.page_info.next_cursor}`);
    expect(next.body.attempts[0].run_id).toBe(runs[0]);
    expect((await world.admin.get(`${PATH}/${uids[0]}/attempts?run_id=${runs[0]}`)).body.attempts.map((a: any) => a.run_id)).toEqual([runs[0]]);
    expectProblem(await world.admin.get(`${PATH}/${uids[0]}/attempts?run_id=${runs[0]}&cursor=${page.body.page_info.next_cursor}`), 400, 'invalid_request');
  });

  it('lets members read and only admins change', async () => {
    world = await startNotificationWorld(kind);
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    const body = { url: world.receiver.url, event_types: ['run.state_changed'] };
    expectProblem(await world.member.post(PATH, body), 403, 'not_authorized');
    expectProblem(await world.member.request('PATCH', `${PATH}/${uid}`, { body: { enabled: false } }), 403, 'not_authorized');
    expectProblem(await world.member.delete(`${PATH}/${uid}`), 403, 'not_authorized');
    expectProblem(await world.member.post(`${PATH}/${uid}/rotate-secret`), 403, 'not_authorized');
    expect((await world.member.get(`${PATH}/${uid}/attempts`)).status).toBe(200);
    expect((await world.admin.get(`${PATH}/${uid}`)).body.enabled).toBe(true);
  });

  it('keeps teams apart: another team neither sees nor changes a subscription, and its runs never reach it', async () => {
    world = await startNotificationWorld(kind);
    const { uid } = await world.subscribe({ event_types: ['run.state_changed'] });
    const other = await world.server.createTeamWithKey('other');
    const stranger = apiClient(world.server.apiUrl, other.apiKey);
    expectProblem(await stranger.get(`${PATH}/${uid}`), 404, 'resource_not_found');
    expectProblem(await stranger.request('PATCH', `${PATH}/${uid}`, { body: { url: 'https://evil.example.com/' } }), 404, 'resource_not_found');
    expectProblem(await stranger.post(`${PATH}/${uid}/rotate-secret`), 404, 'resource_not_found');
    expectProblem(await stranger.get(`${PATH}/${uid}/attempts`), 404, 'resource_not_found');
    expectProblem(await stranger.delete(`${PATH}/${uid}`), 404, 'resource_not_found');
    expect((await stranger.get(PATH)).body.subscriptions).toEqual([]);
    // A filter cannot name another team's factory or automation.
    const factory = (await world.admin.post('/factories', { name: 'mine' })).body.uid;
    const refused = await stranger.post(PATH, { url: 'https://hooks.example.com/', event_types: ['run.state_changed'], filter: { factory_uid: factory } });
    expectProblem(refused, 422, 'validation_failed');
    expect(refused.body.errors).toEqual([{ path: '$.filter.factory_uid', message: 'names no factory of this team' }]);

    const theirs = await stranger.post(PATH, { url: `${world.receiver.url}/theirs`, event_types: ['run.state_changed'] });
    expect(theirs.status).toBe(201);
    const theirRun = await createRun(stranger);
    const ourRun = await createRun(world.admin);
    await world.receiver.waitFor(2);
    await world.waitForAttempts(uid, 1);
    const seen = world.receiver.received.map((r) => [r.path, JSON.parse(r.body).data.run_id]).sort();
    expect(seen).toEqual(
      [
        ['/hooks', ourRun],
        ['/hooks/theirs', theirRun],
      ].sort(),
    );
    expect((await world.admin.get(`${PATH}/${uid}`)).body.uid).toBe(uid);

    // A team without subscriptions: its runs' changes record nothing anywhere.
    const quiet = await world.server.createTeamWithKey('quiet');
    const quietClient = apiClient(world.server.apiUrl, quiet.apiKey);
    const quietRun = await createRun(quietClient);
    expect((await quietClient.post(`/agent/runs/${quietRun}/cancel`)).status).toBe(200);
    const recorded = await world.server.ctx.db.selectFrom('notification_messages').select('id').where('team_id', '=', quiet.teamId).execute();
    expect(recorded).toEqual([]);
  });

  it('answers hostile input with 4xx problems naming what is wrong, and stores nothing of it', async () => {
    world = await startNotificationWorld(kind, { env: { NOTIFICATIONS_SUBSCRIPTIONS_PER_TEAM: '2' } });
    const { admin } = world;
    const url = 'https://hooks.example.com/';
    const factory = (await admin.post('/factories', { name: 'one' })).body.uid;
    const otherFactory = (await admin.post('/factories', { name: 'two' })).body.uid;
    const webhook = (await admin.post(`/factories/${factory}/webhooks`, { name: 'w' })).body.uid;
    const automation = (
      await admin.post(`/factories/${factory}/automations`, {
        name: 'a',
        prompt: 'p',
        triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook] } }],
      })
    ).body.uid;

    const invalid: Array<[unknown, string]> = [
      [{ url, event_types: [] }, 'event_types'],
      [{ url, event_types: ['run.exploded'] }, 'event_types'],
      [{ url, event_types: ['run.failed', 'run.failed'] }, 'event_types'],
      [{ url, event_types: 'run.failed' }, 'event_types'],
      [{ event_types: ['run.failed'] }, 'url'],
      [{ url: 42, event_types: ['run.failed'] }, 'url'],
      [{ url, event_types: ['run.failed'], description: 'd'.repeat(501) }, 'description'],
      [{ url, event_types: ['run.failed'], secret: 'whsec_mine' }, 'secret'],
      [{ url, event_types: ['run.failed'], filter: { factory_uid: '' } }, 'factory_uid'],
      [{ url, event_types: ['run.failed'], filter: { team: 'x' } }, 'team'],
      [{ url, event_types: ['run.failed'], enabled: 'yes' }, 'enabled'],
    ];
    for (const [body, field] of invalid) {
      const res = await admin.post(PATH, body);
      expectProblem(res, 400, 'invalid_request');
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field);
    }
    const unprocessable: Array<[unknown, string]> = [
      [{ url, event_types: ['run.failed'], filter: { factory_uid: 'fac_01hzx3k4m5n6p7q8r9s0t1v2w3' } }, '$.filter.factory_uid'],
      [{ url, event_types: ['run.failed'], filter: { automation_id: 'aut_01hzx3k4m5n6p7q8r9s0t1v2w3' } }, '$.filter.automation_id'],
      [{ url, event_types: ['run.failed'], filter: { factory_uid: otherFactory, automation_id: automation } }, '$.filter.automation_id'],
    ];
    for (const [body, path] of unprocessable) {
      const res = await admin.post(PATH, body);
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors.map((e: any) => e.path)).toEqual([path]);
    }
    expectProblem(await admin.request('POST', PATH, { rawBody: '{"url": ', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    expect((await admin.get(PATH)).body.subscriptions).toEqual([]);

    const ok = await admin.post(PATH, { url, event_types: ['run.failed'], filter: { factory_uid: factory, automation_id: automation } });
    expect(ok.status, ok.text).toBe(201);
    expect((await admin.post(PATH, { url, event_types: ['run.failed'] })).status).toBe(201);
    expectProblem(await admin.post(PATH, { url, event_types: ['run.failed'] }), 409, 'limit_exceeded');

    const uid = ok.body.uid;
    expectProblem(await admin.request('PATCH', `${PATH}/${uid}`, { body: { event_types: [] } }), 400, 'invalid_request');
    expectProblem(await admin.request('PATCH', `${PATH}/${uid}`, { body: { enabled: null } }), 400, 'invalid_request');
    expectProblem(await admin.post(`${PATH}/${uid}/rotate-secret`, { secret: 'whsec_mine' }), 400, 'invalid_request');
    expectProblem(await admin.get(`${PATH}?cursor=not-a-cursor`), 400, 'invalid_request');
    expectProblem(await admin.get(`${PATH}?limit=0`), 400, 'invalid_request');
    expectProblem(await admin.get(`${PATH}/${uid}/attempts?event_id=`), 400, 'invalid_request');
    expectProblem(await admin.get(`${PATH}/${encodeURIComponent("sub_' OR 1=1 --")}`), 404, 'resource_not_found');
    expect((await admin.get(`${PATH}/${uid}`)).body).toMatchObject({ event_types: ['run.failed'], enabled: true });
  });

  it('never writes a signing secret to the logs', async () => {
    const lines: string[] = [];
    const log = createLogger({ logLevel: 'trace' }, { write: (line: string) => void lines.push(line) });
    world = await startNotificationWorld(kind, { log });
    const { uid, secret } = await world.subscribe({ event_types: ['run.state_changed'] });
    const rotated = (await world.admin.post(`${PATH}/${uid}/rotate-secret`)).body.secret;
    world.receiver.script({ status: 500 });
    await createRun(world.admin);
    await world.waitForAttempts(uid, 1);
    const log_ = lines.join('');
    expect(log_).toContain('"msg":"request"');
    for (const value of [secret, rotated]) {
      expect(log_).not.toContain(value);
      expect(log_).not.toContain(value.slice('whsec_'.length));
    }
  });
});
