import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, toTimestamp } from '../../src/clock';
import { requestHash } from '../../src/http/idempotency';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('Idempotency-Key on POST (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let teamId: string;
  let keyId: string;
  const clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));
  const runCount = async () => (await server.ctx.db.selectFrom('runs').select('id').where('team_id', '=', teamId).execute()).length;

  beforeAll(async () => {
    server = await startTestServer({ database, engine: false, clock, env: { IDEMPOTENCY_TTL_SECONDS: '3600', IDEMPOTENCY_IN_FLIGHT_SECONDS: '60' } });
    const team = await server.createTeamWithKey('idem', 'member');
    teamId = team.teamId;
    keyId = team.keyId;
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  it('replays the stored answer for the same key and body, without acting again', async () => {
    const before = await runCount();
    const first = await api.post('/agent/runs', { prompt: 'once', title: 'T' }, { 'idempotency-key': 'k-replay' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same body with its keys in another order is the same request.
    const second = await api.post('/agent/runs', { title: 'T', prompt: 'once' }, { 'idempotency-key': 'k-replay' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
    expect(await runCount()).toBe(before + 1);
  });

  it('answers 409 conflict (final) for the same key with another body or another path', async () => {
    await api.post('/agent/runs', { prompt: 'original' }, { 'idempotency-key': 'k-conflict' });
    const other = await api.post('/agent/runs', { prompt: 'different' }, { 'idempotency-key': 'k-conflict' });
    expectProblem(other, 409, 'conflict');
    expect(other.body.retryable).toBe(false);
    expect(other.headers.get('x-should-retry')).toBe('false');
    const otherPath = await api.post('/agent/run', { prompt: 'original' }, { 'idempotency-key': 'k-conflict' });
    expectProblem(otherPath, 409, 'conflict');
  });

  it('answers 409 conflict, retryable, while the first request with the key is still being processed', async () => {
    const now = toTimestamp(clock.now());
    await server.ctx.db
      .insertInto('idempotency_keys')
      .values({
        team_id: teamId,
        key: 'k-inflight',
        method: 'POST',
        path: '/api/v1/agent/runs',
        request_hash: requestHash(keyId, 'POST', '/api/v1/agent/runs', { prompt: 'dup' }),
        status_code: null,
        response_headers: null,
        response_body: null,
        created_at: now,
        expires_at: toTimestamp(new Date(clock.now().getTime() + 3_600_000)),
      })
      .execute();
    const res = await api.post('/agent/runs', { prompt: 'dup' }, { 'idempotency-key': 'k-inflight' });
    expectProblem(res, 409, 'conflict');
    expect(res.body.retryable).toBe(true);
    expect(res.headers.get('x-should-retry')).toBeNull();

    // A first request that never answered (its process died) frees the key after the in-flight window.
    clock.advance(61_000);
    const retried = await api.post('/agent/runs', { prompt: 'dup' }, { 'idempotency-key': 'k-inflight' });
    expect(retried.status).toBe(200);
  });

  it('replays stored 4xx answers too, and forgets the key after the window', async () => {
    const missing = '/agent/runs/00000000-0000-4000-8000-000000000000/cancel';
    const first = await api.post(missing, undefined, { 'idempotency-key': 'k-404' });
    expectProblem(first, 404, 'resource_not_found');
    const again = await api.post(missing, undefined, { 'idempotency-key': 'k-404' });
    expectProblem(again, 404, 'resource_not_found');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.detail).toBe(first.body.detail);

    const created = await api.post('/agent/runs', { prompt: 'windowed' }, { 'idempotency-key': 'k-window' });
    clock.advance(3_600_000);
    const afterWindow = await api.post('/agent/runs', { prompt: 'windowed' }, { 'idempotency-key': 'k-window' });
    expect(afterWindow.status).toBe(200);
    expect(afterWindow.headers.get('idempotent-replayed')).toBeNull();
    expect(afterWindow.body.run_id).not.toBe(created.body.run_id);
  });

  it('scopes keys to the team and keeps stored answers encrypted', async () => {
    const other = apiClient(server.apiUrl, (await server.createTeamWithKey('idem-other', 'member')).apiKey);
    const mine = await api.post('/agent/runs', { prompt: 'shared key' }, { 'idempotency-key': 'k-team' });
    const theirs = await other.post('/agent/runs', { prompt: 'shared key' }, { 'idempotency-key': 'k-team' });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.run_id).not.toBe(mine.body.run_id);

    const row = await server.ctx.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('key', '=', 'k-team')
      .executeTakeFirstOrThrow();
    expect(row.status_code).toBe(200);
    expect(row.response_body).toMatch(/^v1\./);
    expect(row.response_body).not.toContain(mine.body.run_id);
    expect(server.ctx.secrets.decrypt(row.response_body!)).toContain(mine.body.run_id);
  });

  it('replays an answer only to the API key that made the first request: another admin cannot read a new key shown once', async () => {
    const admin = apiClient(server.apiUrl, (await server.createTeamWithKey('idem-admins', 'admin')).apiKey);
    const second = await admin.post('/api-keys', { name: 'second admin', role: 'admin' });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const created = await admin.post('/api-keys', { name: 'ci', role: 'member' }, { 'idempotency-key': 'k-secret' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const replayed = await admin.post('/api-keys', { name: 'ci', role: 'member' }, { 'idempotency-key': 'k-secret' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.api_key).toBe(created.body.api_key);

    const stolen = await apiClient(server.apiUrl, second.body.api_key).post('/api-keys', { name: 'ci', role: 'member' }, { 'idempotency-key': 'k-secret' });
    expectProblem(stolen, 409, 'conflict');
    expect(JSON.stringify(stolen.body)).not.toContain(created.body.api_key);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await api.post('/agent/runs', { prompt: 'x' }, { 'idempotency-key': 'x'.repeat(256) });
    expectProblem(res, 400, 'invalid_request');
  });

  it("re-checks the caller's role before a replay: a member replaying an admin's POST /api-keys gets 403", async () => {
    const { apiKey: adminKey } = await server.createTeamWithKey('idem-roles', 'admin');
    const admin = apiClient(server.apiUrl, adminKey);
    const memberKey = await admin.post('/api-keys', { name: 'member', role: 'member' });
    expect(memberKey.status).toBe(201);
    const member = apiClient(server.apiUrl, memberKey.body.api_key);

    const body = { name: 'stolen', role: 'admin' };
    const first = await admin.post('/api-keys', body, { 'idempotency-key': 'k-admin-only' });
    expect(first.status).toBe(201);
    const replayed = await member.post('/api-keys', body, { 'idempotency-key': 'k-admin-only' });
    expectProblem(replayed, 403, 'not_authorized');
    expect(replayed.text).not.toContain(first.body.api_key);
    // The admin still gets its own answer back.
    const again = await admin.post('/api-keys', body, { 'idempotency-key': 'k-admin-only' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.api_key).toBe(first.body.api_key);
  });

  it('answers a body nested too deeply with 400 naming the nesting, not a 500 (with or without a key)', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const headers of [{ 'idempotency-key': 'k-deep' }, {}] as Array<Record<string, string>>) {
      const res = await api.request('POST', '/agent/runs', {
        rawBody: `{"prompt":"deep","extra":${deep}}`,
        headers: { 'content-type': 'application/json', ...headers },
      });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.detail).toMatch(/nest/);
    }
    // Moderate nesting in an ignored field is fine, and hashes the same whatever the key order.
    const nested = JSON.parse('['.repeat(50) + '{"b":1,"a":2}' + ']'.repeat(50)) as unknown;
    const ok = await api.post('/agent/runs', { prompt: 'nested', extra: nested }, { 'idempotency-key': 'k-nested' });
    expect(ok.status).toBe(200);
    const same = await api.post('/agent/runs', { extra: nested, prompt: 'nested' }, { 'idempotency-key': 'k-nested' });
    expect(same.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers a keyed body holding an unpaired surrogate with 400: its RFC 8785 form, and so its hash, does not exist', async () => {
    const res = await api.request('POST', '/agent/runs', {
      rawBody: '{"prompt":"half a smile \\ud83d"}',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-surrogate' },
    });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.detail).toMatch(/surrogate/);
  });
});

describe('the idempotency request hash', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('is the SHA-256 of the API key id, method, path and the body in RFC 8785 form (a missing body as null)', () => {
    const body = JSON.parse('{"prompt":"é€😀","b":[1.5,1e21,-0,null],"a":{"z":true,"A":"x"}}') as unknown;
    const jcs = '{"a":{"A":"x","z":true},"b":[1.5,1e+21,0,null],"prompt":"é€😀"}';
    expect(requestHash('key_1', 'POST', '/api/v1/agent/runs', body)).toBe(sha256(`key_1\nPOST\n/api/v1/agent/runs\n${jcs}`));
    expect(requestHash('key_1', 'POST', '/api/v1/agent/runs/r/cancel', undefined)).toBe(sha256('key_1\nPOST\n/api/v1/agent/runs/r/cancel\nnull'));
  });
});

describe.each(testDatabases())('Idempotency-Key retention (%s)', (database) => {
  let server: TestServer;
  const clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));

  beforeAll(async () => {
    server = await startTestServer({
      database,
      engine: false,
      clock,
      env: { IDEMPOTENCY_TTL_SECONDS: '3600', RETENTION_INTERVAL_SECONDS: '1' },
    });
  });
  afterAll(() => server?.close());

  const keysLeft = async () => (await server.ctx.db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((r) => r.key);

  it('the periodic retention job deletes answers whose window has passed, and only those', async () => {
    const { apiKey } = await server.createTeamWithKey('idem-retention', 'member');
    const api = apiClient(server.apiUrl, apiKey);
    expect((await api.post('/agent/runs', { prompt: 'old' }, { 'idempotency-key': 'k-old' })).status).toBe(200);
    clock.advance(1_800_000);
    expect((await api.post('/agent/runs', { prompt: 'young' }, { 'idempotency-key': 'k-young' })).status).toBe(200);
    expect(await keysLeft()).toEqual(['k-old', 'k-young']);

    // k-old's hour is over, k-young's is not: the next run of the job (every second here) drops k-old.
    clock.advance(1_800_000);
    const deadline = Date.now() + 5_000;
    while ((await keysLeft()).includes('k-old') && Date.now() < deadline) await delay(50);
    expect(await keysLeft()).toEqual(['k-young']);
  });
});
