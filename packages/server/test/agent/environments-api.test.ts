/**
 * Environments and the skills catalogue over HTTP (full server, responses validated against the contract):
 * CRUD with write-only variable values, admin-only changes, team scoping, and run create refusing an
 * unknown environment_id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/api-keys/service';
import { availableBundledSkillIds } from '../../src/skills/catalog';
import { testDatabases } from '../support/databases';
import { startTestServer, type TeamWithKey, type TestServer } from '../support/server';

describe.each(testDatabases())('over HTTP (%s)', (kind) => {
  let server: TestServer;
  let admin: TeamWithKey;
  let member: TeamWithKey;
  let otherTeam: TeamWithKey;

  beforeAll(async () => {
    server = await startTestServer({ database: kind });
    admin = await server.createTeamWithKey('env-team', 'admin');
    otherTeam = await server.createTeamWithKey('env-other', 'admin');
    // A member key of the same team.
    const key = await createApiKey(server.ctx.db, server.ctx.clock, { teamId: admin.teamId, name: 'member', role: 'member', createdBy: 'operator' });
    member = { ...admin, apiKey: key.api_key, keyId: key.key_id };
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  async function call(key: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  describe('environments API', () => {
    it('creates, reads, lists, updates and deletes an environment without ever returning variable values', async () => {
      const created = await call(admin.apiKey, 'POST', '/agent/environments', {
        name: 'node-20',
        description: 'Node 20 with pnpm',
        setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'],
        env_vars: { NPM_TOKEN: 'npm_abcdef', CI: '1' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^env_[0-9a-z]{26}$/),
        name: 'node-20',
        description: 'Node 20 with pnpm',
        setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'],
        env_var_names: ['CI', 'NPM_TOKEN'],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.id as string;
      expect(JSON.stringify(created.body)).not.toContain('npm_abcdef');

      const got = await call(member.apiKey, 'GET', `/agent/environments/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);

      const listed = await call(member.apiKey, 'GET', '/agent/environments');
      expect(listed.status).toBe(200);
      expect(listed.body.environments.map((e: { id: string }) => e.id)).toContain(id);
      expect(listed.body.page_info).toEqual({ has_next_page: false, next_cursor: null });

      const updated = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { description: 'Node 20', env_vars: { NPM_TOKEN: 'npm_new' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'node-20', description: 'Node 20', setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'], env_var_names: ['NPM_TOKEN'] });

      expect((await call(admin.apiKey, 'DELETE', `/agent/environments/${id}`)).status).toBe(204);
      expect((await call(admin.apiKey, 'GET', `/agent/environments/${id}`)).status).toBe(404);
      expect((await call(admin.apiKey, 'DELETE', `/agent/environments/${id}`)).status).toBe(404);
    });

    it('pages newest first', async () => {
      const ids: string[] = [];
      for (const name of ['page-a', 'page-b', 'page-c']) ids.push((await call(otherTeam.apiKey, 'POST', '/agent/environments', { name })).body.id);
      const first = await call(otherTeam.apiKey, 'GET', '/agent/environments?limit=2');
      expect(first.body.environments.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.page_info.has_next_page).toBe(true);
      const second = await call(otherTeam.apiKey, 'GET', `/agent/environments?limit=2&cursor=${first.body.page_info.next_cursor}`);
      expect(second.body.environments.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
      expect(second.body.page_info).toEqual({ has_next_page: false, next_cursor: null });
    });

    it('answers 409 for a name already taken in the team, but allows it in another team', async () => {
      expect((await call(admin.apiKey, 'POST', '/agent/environments', { name: 'dup' })).status).toBe(201);
      const again = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'dup' });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe('https://agent-runs.dev/errors/conflict');
      expect((await call(otherTeam.apiKey, 'POST', '/agent/environments', { name: 'dup' })).status).toBe(201);
    });

    it('lets only admins change environments (403 for a member)', async () => {
      const res = await call(member.apiKey, 'POST', '/agent/environments', { name: 'nope' });
      expect(res.status).toBe(403);
      expect(res.body.type).toBe('https://agent-runs.dev/errors/not_authorized');
    });

    it('scopes environments to the team (another team gets 404)', async () => {
      const mine = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'private' });
      expect((await call(otherTeam.apiKey, 'GET', `/agent/environments/${mine.body.id}`)).status).toBe(404);
      expect((await call(otherTeam.apiKey, 'PATCH', `/agent/environments/${mine.body.id}`, { name: 'stolen' })).status).toBe(404);
      expect((await call(otherTeam.apiKey, 'DELETE', `/agent/environments/${mine.body.id}`)).status).toBe(404);
    });

    it('refuses an invalid variable name with 400', async () => {
      const res = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'bad-vars', env_vars: { 'NOT-OK': 'x' } });
      expect(res.status).toBe(400);
    });

    it('refuses a run whose environment_id names no environment of the team', async () => {
      const theirs = await call(otherTeam.apiKey, 'POST', '/agent/environments', { name: 'theirs-for-run' });
      for (const environment_id of ['env_00000000000000000000000000', theirs.body.id]) {
        const res = await call(admin.apiKey, 'POST', '/agent/runs', { prompt: 'hi', config: { environment_id } });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ path: '$.config.environment_id' })]);
      }
      const ok = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'for-run' });
      expect((await call(admin.apiKey, 'POST', '/agent/runs', { prompt: 'hi', config: { environment_id: ok.body.id } })).status).toBe(200);
    });
  });

  describe('skills API', () => {
    it('lists the bundled catalogue with availability for any key', async () => {
      const res = await call(member.apiKey, 'GET', '/agent/skills');
      expect(res.status).toBe(200);
      expect(res.body.skills).toHaveLength(14);
      expect(res.body.skills.find((s: { id: string }) => s.id === 'service-platform')).toEqual({
        id: 'service-platform',
        name: 'Service platform',
        description: 'Run, configure and inspect cloud agents through the API and CLI.',
        bundled: true,
        available: true,
      });
      expect(res.body.skills.filter((s: { available: boolean }) => s.available).map((s: { id: string }) => s.id).sort()).toEqual(
        [...availableBundledSkillIds()].sort(),
      );
    });

    it('needs an API key', async () => {
      expect((await fetch(`${server.apiUrl}/agent/skills`)).status).toBe(401);
    });
  });
});
