/**
 * Environments and the skills catalogue over HTTP (full server, responses validated against the contract):
 * CRUD in the Oz CloudEnvironment shape with write-only variable values, the Oz fields refused by name, both
 * orders, what the newest run says about an environment, admin-only changes, team scoping, and run create
 * refusing an unknown environment_id.
 */
import { setTimeout as delay } from 'node:timers/promises';
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
    it('creates, reads, lists, updates and deletes an environment in the Oz shape, never returning variable values', async () => {
      const created = await call(admin.apiKey, 'POST', '/agent/environments', {
        name: 'node-20',
        description: 'Node 20 with pnpm',
        setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'],
        env_vars: { NPM_TOKEN: 'npm_abcdef', CI: '1' },
        plain_env_vars: { NODE_ENV: 'test' },
        github_repos: [],
        providers: {},
        failure_session_retention_minutes: 10,
      });
      expect(created.status).toBe(201);
      const adminInfo = { type: 'service_account', uid: admin.keyId, display_name: expect.any(String) };
      expect(created.body).toEqual({
        uid: expect.stringMatching(/^env_[0-9a-z]{26}$/),
        config: { name: 'node-20', description: 'Node 20 with pnpm', setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'] },
        last_updated: created.body.created_at,
        last_task_run_timestamp: null,
        setup_failed: false,
        scope: { type: 'Team', uid: admin.teamId },
        creator: adminInfo,
        last_editor: adminInfo,
        env_var_names: ['CI', 'NPM_TOKEN'],
        plain_env_vars: { NODE_ENV: 'test' },
        created_at: expect.any(String),
      });
      const id = created.body.uid as string;
      expect(JSON.stringify(created.body)).not.toContain('npm_abcdef');

      const got = await call(member.apiKey, 'GET', `/agent/environments/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);

      const listed = await call(member.apiKey, 'GET', '/agent/environments');
      expect(listed.status).toBe(200);
      expect(listed.body.environments.map((e: { uid: string }) => e.uid)).toContain(id);
      expect(listed.body.page_info).toEqual({ has_next_page: false, next_cursor: null });

      const updated = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { description: 'Node 20', env_vars: { NPM_TOKEN: 'npm_new' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        config: { name: 'node-20', description: 'Node 20', setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'] },
        env_var_names: ['NPM_TOKEN'],
        creator: adminInfo,
      });
      expect(updated.body.last_updated >= created.body.last_updated).toBe(true);
      // A variable is either secret or plain: a name in both is refused, naming it, whichever side the PATCH changes.
      const shared = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { plain_env_vars: { NPM_TOKEN: 'x', DEBUG: '1' } });
      expect(shared.status).toBe(400);
      expect(shared.body.errors).toEqual([{ path: '$.plain_env_vars.NPM_TOKEN', message: 'also in env_vars' }]);
      const sharedBySecret = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { env_vars: { NODE_ENV: 'x' } });
      expect(sharedBySecret.status).toBe(400);
      expect(sharedBySecret.body.errors).toEqual([{ path: '$.plain_env_vars.NODE_ENV', message: 'also in env_vars' }]);
      const sharedOnCreate = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'both', env_vars: { A: '1' }, plain_env_vars: { A: '2' } });
      expect(sharedOnCreate.status).toBe(400);
      const replaced = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { plain_env_vars: { DEBUG: '1' } });
      expect(replaced.body.plain_env_vars).toEqual({ DEBUG: '1' });
      const cleared = await call(admin.apiKey, 'PATCH', `/agent/environments/${id}`, { description: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.config).toEqual({ name: 'node-20', setup_commands: ['corepack enable', 'pnpm install --frozen-lockfile'] });

      expect((await call(admin.apiKey, 'DELETE', `/agent/environments/${id}`)).status).toBe(204);
      expect((await call(admin.apiKey, 'GET', `/agent/environments/${id}`)).status).toBe(404);
      expect((await call(admin.apiKey, 'DELETE', `/agent/environments/${id}`)).status).toBe(404);
    });

    it('refuses, naming the field, the Oz config field it cannot honour: providers', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          {
            name: 'gcp',
            providers: { gcp: { project_number: '1', workload_identity_federation_pool_id: 'p', workload_identity_federation_provider_id: 'q' } },
          },
          '$.providers.gcp',
        ],
      ];
      for (const [body, path] of cases) {
        const res = await call(admin.apiKey, 'POST', '/agent/environments', body);
        expect(res.status, path).toBe(400);
        expect(res.body.errors, path).toEqual([{ path, message: 'not supported' }]);
        expect(res.body.detail, path).toContain(path.slice(2).split('.')[0]);
      }
    });

    it('keeps docker_image and registry_secret_name; refuses a docker_image that is no reference or from a registry not allowed', async () => {
      const created = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'img', docker_image: 'ubuntu:latest', registry_secret_name: 'HUB' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.config).toMatchObject({ docker_image: 'ubuntu:latest', registry_secret_name: 'HUB' });
      const cleared = await call(admin.apiKey, 'PATCH', `/agent/environments/${created.body.uid}`, { docker_image: null, registry_secret_name: null });
      expect(cleared.body.config.docker_image).toBeUndefined();
      expect(cleared.body.config.registry_secret_name).toBeUndefined();
      const cases: Array<[string, string]> = [
        ['Ubuntu:latest', 'is not an image reference'],
        ['ubuntu@sha256:abc', 'is not an image reference'],
        ['10.1.2.3:5000/team/x:1', 'registry 10.1.2.3:5000 is not allowed'],
        ['registry.example.com/team/x:1', 'registry registry.example.com is not allowed'],
      ];
      for (const [image, why] of cases) {
        const res = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'bad-img', docker_image: image });
        expect(res.status, image).toBe(400);
        expect(res.body.errors[0].path, image).toBe('$.docker_image');
        expect(res.body.detail, image).toContain(why);
      }
      const patched = await call(admin.apiKey, 'PATCH', `/agent/environments/${created.body.uid}`, { docker_image: '169.254.169.254/x:1' });
      expect(patched.status).toBe(400);
      expect(patched.body.errors[0].path).toBe('$.docker_image');
      expect(
        (await call(admin.apiKey, 'GET', `/agent/environments?sort_by=name`)).body.environments.map((e: { config: { name: string } }) => e.config.name),
      ).not.toContain('bad-img');
    });

    it('pages most recently updated first by default, by name with sort_by=name; a cursor holds to its sort', async () => {
      const team = await server.createTeamWithKey(`env-pages-${Date.now()}`, 'admin');
      const ids: Record<string, string> = {};
      for (const name of ['page-b', 'page-c', 'page-a']) {
        ids[name] = (await call(team.apiKey, 'POST', '/agent/environments', { name })).body.uid;
        await delay(5); // distinct updated_at (millisecond timestamps)
      }
      // page-b changed last: it comes first.
      await call(team.apiKey, 'PATCH', `/agent/environments/${ids['page-b']}`, { setup_commands: ['true'] });
      const names = (body: { environments: Array<{ config: { name: string } }> }) => body.environments.map((e) => e.config.name);
      const first = await call(team.apiKey, 'GET', '/agent/environments?limit=2');
      expect(names(first.body)).toEqual(['page-b', 'page-a']);
      expect(first.body.page_info.has_next_page).toBe(true);
      const second = await call(team.apiKey, 'GET', `/agent/environments?limit=2&cursor=${first.body.page_info.next_cursor}`);
      expect(names(second.body)).toEqual(['page-c']);
      expect(second.body.page_info).toEqual({ has_next_page: false, next_cursor: null });

      const byName = await call(team.apiKey, 'GET', '/agent/environments?sort_by=name&limit=2');
      expect(names(byName.body)).toEqual(['page-a', 'page-b']);
      const byNameNext = await call(team.apiKey, 'GET', `/agent/environments?sort_by=name&limit=2&cursor=${byName.body.page_info.next_cursor}`);
      expect(names(byNameNext.body)).toEqual(['page-c']);
      expect((await call(team.apiKey, 'GET', `/agent/environments?cursor=${byName.body.page_info.next_cursor}`)).status).toBe(400);
      expect((await call(team.apiKey, 'GET', '/agent/environments?sort_by=created_at')).status).toBe(400);
    });

    it('says what the newest run that selected it did: last_task_created, last_task_run_timestamp, setup_failed', async () => {
      const team = await server.createTeamWithKey(`env-runs-${Date.now()}`, 'admin');
      const env = (await call(team.apiKey, 'POST', '/agent/environments', { name: 'tracked' })).body;
      const first = (await call(team.apiKey, 'POST', '/agent/runs', { prompt: 'first', config: { environment_id: env.uid } })).body;
      await delay(5); // distinct created_at
      const second = (await call(team.apiKey, 'POST', '/agent/runs', { prompt: 'second', title: 'Second run', config: { environment_id: env.uid } })).body;
      await call(team.apiKey, 'POST', '/agent/runs', { prompt: 'no environment' });
      // The newest run failed while setting the environment up (as engine/environment-setup.ts records it).
      await server.ctx.db
        .updateTable('runs')
        .set({
          state: 'FAILED',
          status_message: JSON.stringify({ message: 'setup command 1 of 1 exited with code 3', error_code: 'environment_setup_failed', retryable: false }),
        })
        .where('id', '=', second.run_id)
        .execute();
      const run = (await call(team.apiKey, 'GET', `/agent/runs/${second.run_id}`)).body;
      const got = (await call(team.apiKey, 'GET', `/agent/environments/${env.uid}`)).body;
      expect(got).toMatchObject({
        last_task_run_timestamp: run.created_at,
        last_task_created: { id: second.run_id, title: 'Second run', state: 'FAILED', created_at: run.created_at, updated_at: run.updated_at },
        setup_failed: true,
      });
      expect(first.run_id).not.toBe(second.run_id);
      const listed = (await call(team.apiKey, 'GET', '/agent/environments')).body.environments[0];
      expect(listed).toEqual(got);
      // Another failure is not a setup failure.
      await server.ctx.db
        .updateTable('runs')
        .set({ status_message: JSON.stringify({ message: 'boom', error_code: 'agent_command_failed' }) })
        .where('id', '=', second.run_id)
        .execute();
      expect((await call(team.apiKey, 'GET', `/agent/environments/${env.uid}`)).body.setup_failed).toBe(false);
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
      expect((await call(otherTeam.apiKey, 'GET', `/agent/environments/${mine.body.uid}`)).status).toBe(404);
      expect((await call(otherTeam.apiKey, 'PATCH', `/agent/environments/${mine.body.uid}`, { name: 'stolen' })).status).toBe(404);
      expect((await call(otherTeam.apiKey, 'DELETE', `/agent/environments/${mine.body.uid}`)).status).toBe(404);
    });

    it('refuses an invalid variable name with 400', async () => {
      const res = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'bad-vars', env_vars: { 'NOT-OK': 'x' } });
      expect(res.status).toBe(400);
    });

    it('refuses a run whose environment_id names no environment of the team', async () => {
      const theirs = await call(otherTeam.apiKey, 'POST', '/agent/environments', { name: 'theirs-for-run' });
      for (const environment_id of ['env_00000000000000000000000000', theirs.body.uid]) {
        const res = await call(admin.apiKey, 'POST', '/agent/runs', { prompt: 'hi', config: { environment_id } });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ path: '$.config.environment_id' })]);
      }
      const ok = await call(admin.apiKey, 'POST', '/agent/environments', { name: 'for-run' });
      expect((await call(admin.apiKey, 'POST', '/agent/runs', { prompt: 'hi', config: { environment_id: ok.body.uid } })).status).toBe(200);
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
      expect(
        res.body.skills
          .filter((s: { available: boolean }) => s.available)
          .map((s: { id: string }) => s.id)
          .sort(),
      ).toEqual([...availableBundledSkillIds()].sort());
    });

    it('needs an API key', async () => {
      expect((await fetch(`${server.apiUrl}/agent/skills`)).status).toBe(401);
    });
  });
});
