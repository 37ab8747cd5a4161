import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directCallAudit } from '../support/audit';
import { loadRestSpec } from '../../src/http/validator';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('API keys and authentication (%s)', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, engine: false, env: { API_KEYS_PER_TEAM: '4' } });
  });
  afterAll(() => server?.close());

  it('answers 401 authentication_required with WWW-Authenticate: Bearer without a key, with a malformed header or an unknown key', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwdw==' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ar_live_unknown' },
    ];
    for (const headers of attempts) {
      const res = await apiClient(server.apiUrl).get('/agent/runs', headers);
      expectProblem(res, 401, 'authentication_required');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const post = await apiClient(server.apiUrl).post('/agent/runs', { prompt: 'x' });
    expectProblem(post, 401, 'authentication_required');
  });

  it('lets an admin create, list (newest first, paged) and delete keys; a deleted key gets 401 at once', async () => {
    const { apiKey: admin } = await server.createTeamWithKey('keys-team', 'admin');
    const api = apiClient(server.apiUrl, admin);

    const created = await api.post('/api-keys', { name: 'ci', role: 'member' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key_id: expect.stringMatching(/^key_[0-9a-z]{26}$/),
      name: 'ci',
      role: 'member',
      created_at: expect.any(String),
      api_key: expect.stringMatching(/^ar_live_[A-Za-z0-9_-]{43}$/),
    });
    const unnamed = await api.post('/api-keys', { role: 'admin' });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.name).toBeNull();

    const member = apiClient(server.apiUrl, created.body.api_key);
    expect((await member.get('/agent/runs')).status).toBe(200);

    const page1 = await api.get('/api-keys?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.api_keys.map((k: { key_id: string }) => k.key_id)).toEqual([unnamed.body.key_id, created.body.key_id]);
    expect(page1.body.api_keys[0]).not.toHaveProperty('api_key');
    expect(page1.body.page_info.has_next_page).toBe(true);
    const page2 = await api.get(`/api-keys?limit=2&cursor=${page1.body.page_info.next_cursor}`);
    expect(page2.body.api_keys).toHaveLength(1);
    expect(page2.body.page_info).toEqual({ has_next_page: false, next_cursor: null });
    expectProblem(await api.get('/api-keys?cursor=bm9wZQ'), 400, 'invalid_request');

    const deleted = await api.delete(`/api-keys/${created.body.key_id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await member.get('/agent/runs'), 401, 'authentication_required');
    expectProblem(await api.delete(`/api-keys/${created.body.key_id}`), 404, 'resource_not_found');
  });

  it('holds a team to API_KEYS_PER_TEAM active keys: one more is 409 limit_exceeded naming the setting; a revoked key frees its place', async () => {
    const { apiKey: admin } = await server.createTeamWithKey('key-limit', 'admin');
    const api = apiClient(server.apiUrl, admin);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await api.post('/api-keys', { name: `k${i}`, role: 'member' }));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const over = await api.post('/api-keys', { name: 'one too many', role: 'member' });
    expectProblem(over, 409, 'limit_exceeded');
    expect(over.body.detail).toContain('API_KEYS_PER_TEAM');
    expect((await api.get('/api-keys')).body.api_keys).toHaveLength(4);
    expect((await api.delete(`/api-keys/${made[0]!.body.key_id}`)).status).toBe(204);
    expect((await api.post('/api-keys', { name: 'after a revocation', role: 'member' })).status).toBe(201);
  });

  it('refuses admin-only operations to a member key with 403 not_authorized', async () => {
    const { apiKey } = await server.createTeamWithKey('members-only', 'member');
    const member = apiClient(server.apiUrl, apiKey);
    expectProblem(await member.get('/api-keys'), 403, 'not_authorized');
    expectProblem(await member.post('/api-keys', { role: 'admin' }), 403, 'not_authorized');
    expect((await member.post('/agent/runs', { prompt: 'members create runs' })).status).toBe(200);
  });

  it('tells any key who it is: GET /api-keys/current answers the calling key and its team', async () => {
    const admin = await server.createTeamWithKey('whoami-team', 'admin');
    const created = await apiClient(server.apiUrl, admin.apiKey).post('/api-keys', { role: 'member' });
    expect(created.status).toBe(201);
    const other = await server.createTeamWithKey('whoami-other', 'member');

    const asMember = await apiClient(server.apiUrl, created.body.api_key).get('/api-keys/current');
    expect(asMember.status).toBe(200);
    expect(asMember.body).toEqual({
      key: { key_id: created.body.key_id, name: null, role: 'member', created_at: created.body.created_at },
      team: { team_id: admin.teamId, name: 'whoami-team' },
    });
    const asAdmin = await apiClient(server.apiUrl, admin.apiKey).get('/api-keys/current');
    expect(asAdmin.body).toEqual({
      key: { key_id: admin.keyId, name: 'whoami-team-admin', role: 'admin', created_at: expect.any(String) },
      team: { team_id: admin.teamId, name: 'whoami-team' },
    });
    expect((await apiClient(server.apiUrl, other.apiKey).get('/api-keys/current')).body.team).toEqual({ team_id: other.teamId, name: 'whoami-other' });
    expectProblem(await apiClient(server.apiUrl).get('/api-keys/current'), 401, 'authentication_required');
  });

  it("keeps keys per team: another team's key id is 404 and its keys are not listed", async () => {
    const a = await server.createTeamWithKey('team-a-keys', 'admin');
    const b = await server.createTeamWithKey('team-b-keys', 'admin');
    const listA = await apiClient(server.apiUrl, a.apiKey).get('/api-keys');
    expect(listA.body.api_keys.map((k: { key_id: string }) => k.key_id)).toEqual([a.keyId]);
    expectProblem(await apiClient(server.apiUrl, a.apiKey).delete(`/api-keys/${b.keyId}`), 404, 'resource_not_found');
    expect((await apiClient(server.apiUrl, b.apiKey).get('/agent/runs')).status).toBe(200);
  });

  it("refuses to delete the team's last admin key with 409 conflict; other admin keys and member keys may go", async () => {
    const { apiKey, keyId } = await server.createTeamWithKey('last-admin', 'admin');
    const admin = apiClient(server.apiUrl, apiKey);
    const member = await admin.post('/api-keys', { name: 'm', role: 'member' });
    const last = await admin.delete(`/api-keys/${keyId}`);
    expectProblem(last, 409, 'conflict');
    expect(last.body.retryable).toBe(false);
    expect(last.body.detail).toMatch(/last admin/);
    expect((await admin.get('/api-keys')).status).toBe(200);

    const second = await admin.post('/api-keys', { name: 'second', role: 'admin' });
    expect((await admin.delete(`/api-keys/${member.body.key_id}`)).status).toBe(204);
    // With a second admin key, an admin may delete the key it calls with.
    expect((await admin.delete(`/api-keys/${keyId}`)).status).toBe(204);
    const other = apiClient(server.apiUrl, second.body.api_key);
    expectProblem(await other.delete(`/api-keys/${second.body.key_id}`), 409, 'conflict');
  });

  it("two admins deleting each other's keys at once leave the team one admin key", async () => {
    for (let round = 0; round < 5; round++) {
      const { apiKey: keyA, keyId: idA } = await server.createTeamWithKey(`admin-race-${round}`, 'admin');
      const a = apiClient(server.apiUrl, keyA);
      const created = await a.post('/api-keys', { name: 'b', role: 'admin' });
      const b = apiClient(server.apiUrl, created.body.api_key);
      const answers = await Promise.all([a.delete(`/api-keys/${created.body.key_id}`), b.delete(`/api-keys/${idA}`)]);
      expect(answers.filter((r) => r.status === 204)).toHaveLength(1);
      // The loser is refused: as the last admin (409), or because its own key went first (401).
      for (const r of answers.filter((r) => r.status !== 204)) expect([401, 409]).toContain(r.status);
      const teamId = (await server.ctx.db.selectFrom('api_keys').select('team_id').where('id', '=', idA).executeTakeFirstOrThrow()).team_id;
      const admins = await server.ctx.db
        .selectFrom('api_keys')
        .select('id')
        .where('team_id', '=', teamId)
        .where('role', '=', 'admin')
        .where('revoked_at', 'is', null)
        .execute();
      expect(admins).toHaveLength(1);
    }
  });

  it('keeps the last admin key when deletions race below the HTTP layer too', async () => {
    const { teamId, keyId } = await server.createTeamWithKey('admin-race-service', 'admin');
    const { createApiKey, deleteApiKey } = await import('../../src/api-keys/service');
    const ids = [keyId];
    for (let i = 0; i < 4; i++)
      ids.push((await createApiKey(server.ctx.db, server.ctx.clock, { teamId, name: `a${i}`, role: 'admin', createdBy: 'operator' })).key_id);
    const results = await Promise.allSettled(
      ids.map((id) => deleteApiKey(server.ctx.db, server.ctx.clock, teamId, id, directCallAudit(teamId, 'api_key', 'revoked'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('stores only a hash of each key', async () => {
    const { apiKey, keyId } = await server.createTeamWithKey('hash-team', 'member');
    const row = await server.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(apiKey);
  });
});

describe('admin-only operations (x-required-role in the contract)', () => {
  const operations = Object.entries(loadRestSpec().paths ?? {}).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ route, method, op: op as { operationId: string; description?: string; 'x-required-role'?: string } })),
  );
  const adminOnly = operations.filter((o) => o.op['x-required-role'] === 'admin');

  it('marks exactly the operations whose description says admin only', () => {
    expect(adminOnly.length).toBeGreaterThanOrEqual(19);
    expect(adminOnly.map((o) => o.op.operationId).sort()).toEqual(
      operations
        .filter((o) => /admin only/i.test(o.op.description ?? ''))
        .map((o) => o.op.operationId)
        .sort(),
    );
  });

  // One request per admin operation (31 of them), each its validator's first: slow on a loaded machine.
  it('refuses every marked operation to a member key: 403 (400 where the request is malformed anyway), never an answer', { timeout: 90_000 }, async () => {
    const server = await startTestServer({ engine: false });
    try {
      const { apiKey } = await server.createTeamWithKey('member-sweep', 'member');
      const member = apiClient(server.apiUrl, apiKey);
      const statuses: Record<string, number> = {};
      for (const { route, method, op } of adminOnly) {
        const path = route.replace(/\{[^}]+\}/g, 'x_00000000000000000000000000');
        const res = await member.request(method.toUpperCase(), path, method === 'get' || method === 'delete' ? {} : { body: {} });
        statuses[op.operationId] = res.status;
        expect([400, 403], `${op.operationId}: ${res.status} ${res.text}`).toContain(res.status);
      }
      expect(Object.values(statuses).filter((s) => s === 403).length).toBeGreaterThanOrEqual(10);
    } finally {
      await server.close();
    }
  });
});
