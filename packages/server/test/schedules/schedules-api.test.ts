/**
 * The scheduled agents' REST operations (contract: the Schedules tag) over real HTTP on SQLite and
 * PostgreSQL: the Oz shapes and status codes, the Oz fields honoured, accepted or refused by name, roles,
 * team isolation, the limits as settings, and hostile input answered with 400 problems, never a 500.
 * Firing is test/schedules/firing.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient, type HttpResponse } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

const T0 = Date.parse('2026-11-27T10:00:00Z');

describe.each(testDatabases())('scheduled agents API (%s)', (database) => {
  let server: TestServer;
  let admin: ApiClient;
  let member: ApiClient;
  let other: ApiClient;
  let teamId: string;
  let adminKeyId: string;
  let skillsDir: string;
  const clock = new ManualClock(T0);
  const SKILL = 'acme/skills:triage';

  const put = (client: ApiClient, id: string, body: unknown): Promise<HttpResponse> => client.request('PUT', `/agent/schedules/${id}`, { body });
  const create = async (body: Record<string, unknown>, client = admin): Promise<any> => {
    const res = await client.post('/agent/schedules', body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  /** A 400 whose errors name `path`. */
  const refused = async (res: HttpResponse, path: string) => {
    expectProblem(res, 400, 'invalid_request');
    expect(
      res.body.errors.map((e: { path: string }) => e.path),
      res.text,
    ).toContain(path);
  };

  beforeAll(async () => {
    skillsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedule-skills-'));
    fs.mkdirSync(path.join(skillsDir, 'acme/skills/skills/triage'), { recursive: true });
    fs.writeFileSync(path.join(skillsDir, 'acme/skills/skills/triage/SKILL.md'), '---\nname: triage\ndescription: Triage an issue\n---\nLabel the issue.\n');
    server = await startTestServer({ database, clock, engine: false, env: { SKILLS_DIR: skillsDir, SCHEDULES_PER_TEAM: '5' } });
    const team = await server.createTeamWithKey('schedulers', 'admin');
    ({ teamId, keyId: adminKeyId } = team);
    admin = apiClient(server.apiUrl, team.apiKey);
    const memberKey = await server.createTeamWithKey('schedulers-members', 'member');
    member = apiClient(server.apiUrl, memberKey.apiKey);
    other = apiClient(server.apiUrl, (await server.createTeamWithKey('other-schedulers', 'admin')).apiKey);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(skillsDir, { recursive: true, force: true });
  });

  it("creates a schedule in Oz's shape: 201, UTC by default, history.next_run the first slot, created_by the key", async () => {
    const schedule = await create({
      name: 'Daily code review',
      cron_schedule: '0 9 * * *',
      prompt: 'Review the open pull requests',
      metadata: { team: 'platform' },
    });
    expect(schedule).toMatchObject({
      id: expect.stringMatching(/^sch_[0-9a-z]{26}$/),
      name: 'Daily code review',
      cron_schedule: '0 9 * * *',
      time_zone: 'UTC',
      enabled: true,
      prompt: 'Review the open pull requests',
      last_spawn_error: null,
      metadata: { team: 'platform' },
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0).toISOString(),
      created_by: { type: 'service_account', uid: adminKeyId },
      history: { last_ran: null, next_run: '2026-11-28T09:00:00.000Z', last_run_id: null, last_outcome: null, skipped_slots: 0 },
      scope: { type: 'Team', uid: teamId },
    });
    expect(schedule.updated_by).toEqual(schedule.created_by);
    expect((await admin.get(`/agent/schedules/${schedule.id}`)).body).toEqual(schedule);
  });

  it('reads the expression in time_zone (answered in its usual letter case) and creates a paused schedule without a next slot', async () => {
    const paris = await create({ name: 'Paris morning', cron_schedule: '0 9 * * *', time_zone: 'europe/paris', prompt: 'Bonjour' });
    expect(paris.time_zone).toBe('Europe/Paris');
    expect(paris.history.next_run).toBe('2026-11-28T08:00:00.000Z'); // 09:00 CET = 08:00 UTC
    const paused = await create({ name: 'Paused', cron_schedule: '@hourly', prompt: 'Later', enabled: false });
    expect(paused).toMatchObject({ enabled: false, history: { next_run: null } });
    await admin.delete(`/agent/schedules/${paris.id}`);
    await admin.delete(`/agent/schedules/${paused.id}`);
  });

  it('a skill-only schedule gets the skill-only prompt; agent_config is kept as requested and its environment is shown', async () => {
    const env = (
      await admin.post('/agent/environments', { name: `env-${Date.now()}`, description: 'Node', setup_commands: ['npm ci'], env_vars: { TOKEN: 'secret' } })
    ).body;
    const schedule = await create({
      name: 'Skill only',
      cron_schedule: '30 2 * * *',
      agent_config: { skills: [SKILL], environment_id: env.uid, computer_use_enabled: true },
    });
    expect(schedule.prompt).toBe(`Follow the instructions of the skill ${SKILL}.`);
    // The limits come from the contract's defaults; the Oz-only computer_use_enabled is not kept (it has no effect here).
    expect(schedule.agent_config).toEqual({
      skill_spec: SKILL,
      environment_id: env.uid,
      max_turns: 20,
      model_call_timeout_seconds: 120,
      run_timeout_seconds: 1800,
    });
    expect(schedule.environment).toEqual({ name: env.config.name, description: 'Node', setup_commands: ['npm ci'] });
    expect(JSON.stringify(schedule)).not.toContain('secret');
    await admin.delete(`/agent/schedules/${schedule.id}`);
    await admin.delete(`/agent/environments/${env.uid}`);
  });

  it("lists the team's schedules sorted by name, paged with a cursor; other teams see none of them", async () => {
    const b = await create({ name: 'b list', cron_schedule: '0 1 * * *', prompt: 'b' });
    const a = await create({ name: 'a list', cron_schedule: '0 2 * * *', prompt: 'a' });
    const all = (await admin.get('/agent/schedules')).body;
    const names = all.schedules.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    expect(all.page_info).toEqual({ has_next_page: false, next_cursor: null });
    const first = (await admin.get('/agent/schedules?limit=1')).body;
    expect(first.schedules).toHaveLength(1);
    expect(first.page_info.has_next_page).toBe(true);
    const second = (await admin.get(`/agent/schedules?limit=1&cursor=${first.page_info.next_cursor}`)).body;
    expect(second.schedules[0].name >= first.schedules[0].name).toBe(true);

    expect((await other.get('/agent/schedules')).body.schedules).toEqual([]);
    for (const res of [
      await other.get(`/agent/schedules/${a.id}`),
      await put(other, a.id, { name: 'x', cron_schedule: '0 1 * * *', enabled: true, prompt: 'x' }),
      await other.delete(`/agent/schedules/${a.id}`),
      await other.post(`/agent/schedules/${a.id}/pause`),
    ]) {
      expectProblem(res, 404, 'resource_not_found');
    }
    await admin.delete(`/agent/schedules/${a.id}`);
    await admin.delete(`/agent/schedules/${b.id}`);
  });

  it('members read schedules but may not write them (403 before anything changes)', async () => {
    const res = await member.post('/agent/schedules', { name: 'nope', cron_schedule: '0 9 * * *', prompt: 'x' });
    expectProblem(res, 403, 'not_authorized');
    expect((await member.get('/agent/schedules')).status).toBe(200);
  });

  it('PUT replaces the definition as Oz does: omitted prompt/agent_config/metadata are cleared, omitted time_zone is kept; the next slot moves only when the timing changes', async () => {
    const s = await create({
      name: 'Put me',
      cron_schedule: '0 9 * * *',
      time_zone: 'Europe/Paris',
      prompt: 'p',
      metadata: { a: '1' },
      agent_config: { name: 'n' },
    });
    clock.advance(60_000);
    const renamed = await put(admin, s.id, { name: 'Put me again', cron_schedule: '0 9 * * *', enabled: true, agent_config: { skill_spec: SKILL } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Put me again',
      time_zone: 'Europe/Paris',
      prompt: `Follow the instructions of the skill ${SKILL}.`,
      agent_config: { skill_spec: SKILL },
    });
    expect(renamed.body.metadata).toBeUndefined();
    expect(renamed.body.history.next_run).toBe(s.history.next_run);
    expect(renamed.body.updated_at).toBe(clock.now().toISOString());
    expect(renamed.body.created_at).toBe(s.created_at);

    const moved = await put(admin, s.id, { name: 'Put me again', cron_schedule: '0 10 * * *', time_zone: 'UTC', enabled: true, prompt: 'q' });
    expect(moved.body).toMatchObject({ time_zone: 'UTC', history: { next_run: '2026-11-28T10:00:00.000Z' } });
    const disabled = await put(admin, s.id, { name: 'Put me again', cron_schedule: '0 10 * * *', enabled: false, prompt: 'q' });
    expect(disabled.body).toMatchObject({ enabled: false, history: { next_run: null } });
    await admin.delete(`/agent/schedules/${s.id}`);
  });

  it('pause and resume: next_run null while paused, the first slot after now on resume; both idempotent', async () => {
    const s = await create({ name: 'Pausable', cron_schedule: '*/15 * * * *', prompt: 'tick' });
    const paused = await admin.post(`/agent/schedules/${s.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, history: { next_run: null } });
    expect((await admin.post(`/agent/schedules/${s.id}/pause`)).body).toEqual(paused.body);
    clock.advance(3 * 3600_000 + 7 * 60_000); // 13:07
    const resumed = await admin.post(`/agent/schedules/${s.id}/resume`);
    expect(resumed.body).toMatchObject({ enabled: true, history: { next_run: '2026-11-27T13:15:00.000Z' } });
    expect((await admin.post(`/agent/schedules/${s.id}/resume`)).body).toEqual(resumed.body);
    for (const op of ['pause', 'resume']) expectProblem(await admin.post(`/agent/schedules/sch_nope/${op}`), 404, 'resource_not_found');
    await admin.delete(`/agent/schedules/${s.id}`);
  });

  it('delete answers 200 {success: true}, then 404', async () => {
    const s = await create({ name: 'Doomed', cron_schedule: '0 9 * * *', prompt: 'x' });
    const res = await admin.delete(`/agent/schedules/${s.id}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
    expectProblem(await admin.delete(`/agent/schedules/${s.id}`), 404, 'resource_not_found');
    expectProblem(await admin.get(`/agent/schedules/${s.id}`), 404, 'resource_not_found');
  });

  it('refuses, naming the field, the Oz fields it cannot honour; accepts team: true and mode: normal', async () => {
    const base = { name: 'Oz fields', cron_schedule: '0 9 * * *', prompt: 'x' };
    await refused(await admin.post('/agent/schedules', { ...base, agent_uid: '0b0e6a0c-7a53-4ae1-9c3e-5e5c5f5e5d5c' }), '$.agent_uid');
    await refused(await admin.post('/agent/schedules', { ...base, team: false }), '$.team');
    await refused(await admin.post('/agent/schedules', { ...base, mode: 'plan' }), '$.mode');
    await refused(await admin.post('/agent/schedules', { ...base, agent_config: { worker_host: 'my-box' } }), '$.agent_config.worker_host');
    await refused(await admin.post('/agent/schedules', { ...base, agent_config: { harness: { type: 'claude' } } }), '$.agent_config.harness.type');
    await refused(
      await admin.post('/agent/schedules', { ...base, agent_config: { mcp_servers: { linear: { warp_id: 'linear' } } } }),
      '$.agent_config.mcp_servers.linear.warp_id',
    );
    const ok = await create({ ...base, team: true, mode: 'normal' });
    await admin.delete(`/agent/schedules/${ok.id}`);
  });

  it("checks the configuration as a run's, with agent_config paths: unknown environment, unknown skill, skills with skill_spec, no prompt nor skill, metadata limits", async () => {
    const base = { name: 'Config', cron_schedule: '0 9 * * *' };
    await refused(
      await admin.post('/agent/schedules', { ...base, prompt: 'x', agent_config: { environment_id: 'env_missing' } }),
      '$.agent_config.environment_id',
    );
    await refused(await admin.post('/agent/schedules', { ...base, agent_config: { skill_spec: 'acme/skills:nope' } }), '$.agent_config.skill_spec');
    await refused(await admin.post('/agent/schedules', { ...base, agent_config: { skill_spec: SKILL, skills: [SKILL] } }), '$.agent_config.skills');
    await refused(await admin.post('/agent/schedules', { ...base }), '$.prompt');
    await refused(await admin.post('/agent/schedules', { ...base, prompt: '   ' }), '$.prompt');
    await refused(await admin.post('/agent/schedules', { ...base, prompt: 'x', metadata: { k: 'é'.repeat(200) } }), '$.metadata.k');
    await refused(await admin.post('/agent/schedules', { ...base, prompt: 'x', agent_config: { max_turns: 0 } }), '$.agent_config.max_turns');
  });

  it('hostile cron expressions and zones are 400 problems naming the field, never 500', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ cron_schedule: 'not cron' }, '$.cron_schedule'],
      [{ cron_schedule: '* * * *' }, '$.cron_schedule'],
      [{ cron_schedule: '0 0 9 * * *' }, '$.cron_schedule'], // a seconds field
      [{ cron_schedule: '61 * * * *' }, '$.cron_schedule'],
      [{ cron_schedule: '@reboot' }, '$.cron_schedule'],
      [{ cron_schedule: '0 0 31 2 *' }, '$.cron_schedule'], // never fires
      [{ cron_schedule: '*/4 * * * *' }, '$.cron_schedule'], // closer than SCHEDULE_MIN_INTERVAL_SECONDS (300)
      [{ cron_schedule: '0,1 9 * * *' }, '$.cron_schedule'],
      [{ cron_schedule: '9'.repeat(300) }, '$.cron_schedule'],
      [{ cron_schedule: '' }, '$.cron_schedule'],
      [{ time_zone: 'Mars/Olympus_Mons' }, '$.time_zone'],
      [{ time_zone: '+02:00' }, '$.time_zone'],
      [{ time_zone: '../../etc/passwd' }, '$.time_zone'],
      [{ time_zone: 'A'.repeat(5000) }, '$.time_zone'],
      [{ name: '' }, '$.name'],
      [{ name: '   ' }, '$.name'],
      [{ name: 'n'.repeat(201) }, '$.name'],
      [{ prompt: 'p'.repeat(262_145) }, '$.prompt'],
      [{ enabled: 'yes' }, '$.enabled'],
    ];
    for (const [override, field] of cases) {
      const body = { name: 'Hostile', cron_schedule: '0 9 * * *', prompt: 'x', ...override };
      await refused(await admin.post('/agent/schedules', body), field);
    }
    // Slots an hour apart at the closest (23:00 → 00:00 the next day) are far enough apart.
    const nightly = await create({ name: 'Around midnight', cron_schedule: '0 23,0 * * *', prompt: 'x' });
    await admin.delete(`/agent/schedules/${nightly.id}`);
    const tooClose = await admin.post('/agent/schedules', { name: 'Fast', cron_schedule: '*/2 * * * *', prompt: 'x' });
    expect(tooClose.body.detail).toContain('SCHEDULE_MIN_INTERVAL_SECONDS');
    expect(tooClose.body.detail).toContain('120 seconds');
    const unknown = await admin.post('/agent/schedules', { name: 'Zone', cron_schedule: '0 9 * * *', prompt: 'x', time_zone: 'Mars/Olympus_Mons' });
    expect(unknown.body.detail).toContain('IANA');
    // A path id of any shape is a 404, and nothing of it reaches a query unbound.
    for (const id of ["sch_' or 1=1 --", '%00', 'x'.repeat(2000)])
      expectProblem(await admin.get(`/agent/schedules/${encodeURIComponent(id)}`), 404, 'resource_not_found');
  });

  it('PUT needs name, cron_schedule and enabled (Oz), and checks like create', async () => {
    const s = await create({ name: 'Strict put', cron_schedule: '0 9 * * *', prompt: 'x' });
    await refused(await put(admin, s.id, { name: 'x', cron_schedule: '0 9 * * *', prompt: 'x' }), '$.enabled');
    await refused(await put(admin, s.id, { name: 'x', cron_schedule: '*/1 * * * *', enabled: true, prompt: 'x' }), '$.cron_schedule');
    await refused(await put(admin, s.id, { name: 'x', cron_schedule: '0 9 * * *', enabled: true, prompt: 'x', time_zone: 'Nowhere/Land' }), '$.time_zone');
    expect((await admin.get(`/agent/schedules/${s.id}`)).body).toEqual(s);
    expectProblem(await put(member, s.id, { name: 'x', cron_schedule: '0 9 * * *', enabled: true, prompt: 'x' }), 403, 'not_authorized');
    await admin.delete(`/agent/schedules/${s.id}`);
  });

  it('SCHEDULES_PER_TEAM: the next one is 409 limit_exceeded naming the setting; deleting makes room', async () => {
    const existing = (await admin.get('/agent/schedules')).body.schedules.length;
    const made: string[] = [];
    for (let i = existing; i < 5; i++) made.push((await create({ name: `fill ${i}`, cron_schedule: '0 9 * * *', prompt: 'x' })).id);
    const over = await admin.post('/agent/schedules', { name: 'one too many', cron_schedule: '0 9 * * *', prompt: 'x' });
    expectProblem(over, 409, 'limit_exceeded');
    expect(over.body.detail).toContain('SCHEDULES_PER_TEAM');
    // Another team has its own budget.
    const elsewhere = await other.post('/agent/schedules', { name: 'mine', cron_schedule: '0 9 * * *', prompt: 'x' });
    expect(elsewhere.status).toBe(201);
    await admin.delete(`/agent/schedules/${made[0]}`);
    expect((await admin.post('/agent/schedules', { name: 'room again', cron_schedule: '0 9 * * *', prompt: 'x' })).status).toBe(201);
  });
});
