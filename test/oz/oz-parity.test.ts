// Every Oz operation this server serves, driven by the published Oz client (`oz-agent-sdk` from npm) against
// the real server over loopback: create (both paths), list with every Oz filter and sort, retrieve, cancel
// (each of Oz's answers), follow-up, conversation, transcript (the 302 followed), environments, models and
// GET /agent (docs/decisions.md §Oz parity). Operations alpha.8 does not wrap go through the Stainless
// client's generic `oz.get` / `oz.post`, so every request still passes through the Oz client.
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import OzAPI, { BadRequestError, ConflictError, NotFoundError, PermissionDeniedError } from 'oz-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SKILL = 'acme/skills:skills/review/SKILL.md';

describe('oz-agent-sdk against this server: every Oz operation', () => {
  let server: TestServer;
  let oz: OzAPI;
  let teamId: string;
  let skillsDir: string;

  beforeAll(async () => {
    skillsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oz-parity-skills-'));
    fs.mkdirSync(path.join(skillsDir, 'acme/skills/skills/review'), { recursive: true });
    fs.writeFileSync(path.join(skillsDir, 'acme/skills/skills/review/SKILL.md'), '---\nname: review\ndescription: Review a change\n---\nReview it.\n');
    // No workers: runs stay where they are put, so every filter and every cancel answer is exact.
    server = await startTestServer({ engine: false, env: { SKILLS_DIR: skillsDir } });
    const team = await server.createTeamWithKey('oz-parity', 'admin');
    teamId = team.teamId;
    oz = new OzAPI({ apiKey: team.apiKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(skillsDir, { recursive: true, force: true });
  });

  /** Puts a run in `state` (and other columns) as the engine would leave it (test setup). */
  const setRun = (runId: string, columns: Record<string, unknown>) => server.ctx.db.updateTable('runs').set(columns).where('id', '=', runId).execute();

  it('creates runs through POST /agent/runs (agent.run) and the deprecated POST /agent/run alike', async () => {
    const modern = await oz.agent.run({ prompt: 'Both paths', title: 'Modern', config: { name: 'paths' } });
    const legacy = (await oz.post('/agent/run', { body: { prompt: 'Both paths', title: 'Legacy', config: { name: 'paths' } } })) as typeof modern;
    for (const created of [modern, legacy]) expect(created).toEqual({ run_id: expect.any(String), task_id: created.run_id, state: 'QUEUED' });
    const [a, b] = await Promise.all([oz.agent.runs.retrieve(modern.run_id), oz.agent.runs.retrieve(legacy.run_id)]);
    expect({ ...a, run_id: '', task_id: '', title: '', session_id: '', session_link: '', conversation_id: '', created_at: '', updated_at: '' }).toEqual({
      ...b,
      run_id: '',
      task_id: '',
      title: '',
      session_id: '',
      session_link: '',
      conversation_id: '',
      created_at: '',
      updated_at: '',
    });
  });

  it('retrieve answers the Oz RunItem fields', async () => {
    const { run_id } = await oz.agent.run({ prompt: 'Look at me', config: { model_id: 'echo' } });
    const run = (await oz.agent.runs.retrieve(run_id)) as unknown as Record<string, unknown>;
    expect(run).toMatchObject({
      run_id,
      task_id: run_id,
      title: 'Look at me',
      state: 'QUEUED',
      prompt: 'Look at me',
      source: 'API',
      execution_location: 'REMOTE',
      is_run_type_cancellable: true,
      is_sandbox_running: false,
      debug_agent_available: false,
      artifacts: [],
      scope: { type: 'Team', uid: teamId },
      conversation_id: `conv_${run_id}`,
      creator: { type: 'service_account', uid: expect.any(String) },
      session_link: expect.stringContaining('/sessions/'),
    });
    expect(run.executor).toEqual(run.creator);
  });

  it('lists with every Oz filter, sort and page parameter, each answering exactly', async () => {
    // A team of its own: every list below is exactly these three runs.
    const lister = await server.createTeamWithKey('oz-lister', 'admin');
    const oz = new OzAPI({ apiKey: lister.apiKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
    const env = (await oz.post('/agent/environments', { body: { name: 'oz-list-env' } })) as { uid: string };
    const a = await oz.agent.run({ prompt: 'alpha needle', title: 'B title', config: { name: 'lister', model_id: 'm-1', environment_id: env.uid } });
    await delay(5);
    const b = await oz.agent.run({ skill: SKILL, title: 'A title', ...({ metadata: { ticket: 'T-1', team: 'web' }, parent_run_id: a.run_id } as object) });
    await delay(5);
    const c = await oz.agent.run({ prompt: 'gamma', config: { name: 'lister' }, ...({ parent_run_id: b.run_id, metadata: { team: 'ops' } } as object) });
    await setRun(a.run_id, { state: 'SUCCEEDED', updated_at: new Date(Date.now() + 1000).toISOString() });
    const after = (await oz.agent.runs.retrieve(b.run_id)).created_at;
    const ids = async (query: Record<string, unknown>) => (await oz.agent.runs.list({}, { query: { limit: 50, ...query } })).runs.map((r) => r.run_id);
    const sorted = (xs: string[]) => [...xs].sort();
    const me = (await oz.agent.runs.retrieve(a.run_id)).creator!.uid!;

    expect(sorted(await ids({ name: 'lister' }))).toEqual(sorted([a.run_id, c.run_id]));
    expect(await ids({ model_id: 'm-1' })).toEqual([a.run_id]);
    expect(sorted(await ids({ creator: me }))).toEqual(sorted([a.run_id, b.run_id, c.run_id]));
    expect(sorted(await ids({ executor: me }))).toEqual(sorted([a.run_id, b.run_id, c.run_id]));
    expect(await ids({ creator: 'someone-else' })).toEqual([]);
    expect(sorted(await ids({ source: 'API' }))).toEqual(sorted([a.run_id, b.run_id, c.run_id]));
    expect(await ids({ source: 'SLACK' })).toEqual([]);
    expect(await ids({ execution_location: 'LOCAL' })).toEqual([]);
    expect((await ids({ execution_location: 'REMOTE' })).length).toBe(3);
    expect(await ids({ state: ['SUCCEEDED'] })).toEqual([a.run_id]);
    expect(sorted(await ids({ state: ['QUEUED', 'SUCCEEDED'] }))).toEqual(sorted([a.run_id, b.run_id, c.run_id]));
    expect(await ids({ created_after: after })).toEqual([c.run_id]);
    expect(await ids({ created_before: after, sort_by: 'created_at' })).toEqual([a.run_id]);
    expect((await ids({ updated_after: '2000-01-01T00:00:00Z' })).length).toBe(3);
    expect(await ids({ environment_id: env.uid })).toEqual([a.run_id]);
    expect(sorted(await ids({ environment_id: 'empty-environment' }))).toEqual(sorted([b.run_id, c.run_id]));
    expect(await ids({ skill: SKILL })).toEqual([b.run_id]);
    expect(await ids({ skill_spec: SKILL })).toEqual([b.run_id]);
    expect(await ids({ schedule_id: 'sched_1' })).toEqual([]);
    expect(sorted(await ids({ ancestor_run_id: a.run_id }))).toEqual(sorted([b.run_id, c.run_id]));
    expect(sorted(await ids({ metadata: { ticket: 'T-1' } }))).toEqual(sorted([b.run_id, c.run_id])); // c inherits b's keys
    expect(await ids({ metadata: { ticket: 'T-1', team: 'ops' } })).toEqual([c.run_id]);
    expect(await ids({ metadata: { team: 'web' } })).toEqual([b.run_id]);
    expect(await ids({ metadata: { team: 'ops' } })).toEqual([c.run_id]);
    expect(await ids({ artifact_type: 'PULL_REQUEST' })).toEqual([]);
    expect(await ids({ q: 'NEEDLE' })).toEqual([a.run_id]);
    expect(await ids({ q: 'review' })).toEqual([b.run_id]); // the skill spec is searched too

    // Sorts: Oz's four keys in both orders.
    expect(await ids({ sort_by: 'created_at', sort_order: 'asc' })).toEqual([a.run_id, b.run_id, c.run_id]);
    expect(await ids({ sort_by: 'created_at', sort_order: 'desc' })).toEqual([c.run_id, b.run_id, a.run_id]);
    expect((await ids({ sort_by: 'updated_at' }))[0]).toBe(a.run_id); // changed last
    const titles = (await oz.agent.runs.list({}, { query: { sort_by: 'title', sort_order: 'asc' } })).runs.map((r) => r.title);
    expect(titles).toEqual([...titles].sort());
    expect((await ids({ sort_by: 'agent', sort_order: 'asc' }))[0]).toBe(b.run_id);

    // Pages: limit and next_cursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await oz.agent.runs.list({ limit: 1, sort_by: 'created_at' as never, ...(cursor ? { cursor } : {}) } as never);
      seen.push(...page.runs.map((r) => r.run_id));
      cursor = page.page_info.has_next_page ? page.page_info.next_cursor : undefined;
    } while (cursor);
    expect(sorted(seen)).toEqual(sorted([a.run_id, b.run_id, c.run_id]));

    // Refused as Oz refuses them.
    await expect(oz.agent.runs.list({}, { query: { ancestor_run_id: '00000000-0000-4000-8000-000000000000' } })).rejects.toBeInstanceOf(BadRequestError);
    await expect(oz.agent.runs.list({}, { query: { sort_by: 'random' } })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('cancel answers as Oz: the id (200), 400 for a terminal run (CANCELLED too), 409 retryable for PENDING, 404 for an unknown run', async () => {
    const queued = await oz.agent.run({ prompt: 'cancel me' });
    expect(await oz.agent.runs.cancel(queued.run_id)).toBe(queued.run_id);
    expect((await oz.agent.runs.retrieve(queued.run_id)).state).toBe('CANCELLED');

    const again = await oz.agent.runs.cancel(queued.run_id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BadRequestError);
    expect((again as BadRequestError).error).toMatchObject({ type: 'https://agent-runs.dev/errors/invalid_request', status: 400, retryable: false });

    for (const state of ['SUCCEEDED', 'FAILED', 'ERROR']) {
      const run = await oz.agent.run({ prompt: `finished ${state}` });
      await setRun(run.run_id, { state });
      const err = await oz.agent.runs.cancel(run.run_id).catch((e: unknown) => e);
      expect(err, state).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).error, state).toMatchObject({ detail: expect.stringContaining(state) });
    }

    const pending = await oz.agent.run({ prompt: 'being prepared' });
    await setRun(pending.run_id, { state: 'PENDING' });
    const conflict = await oz.agent.runs.cancel(pending.run_id).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).error).toMatchObject({ type: 'https://agent-runs.dev/errors/conflict', status: 409, retryable: true });
    expect((await oz.agent.runs.retrieve(pending.run_id)).state).toBe('PENDING');

    for (const state of ['CLAIMED', 'INPROGRESS', 'BLOCKED']) {
      const run = await oz.agent.run({ prompt: `live ${state}` });
      await setRun(run.run_id, { state });
      expect(await oz.agent.runs.cancel(run.run_id), state).toBe(run.run_id);
    }
    await expect(oz.agent.runs.cancel('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('follow-up (submitFollowup): accepted as an object; plan mode refused by name', async () => {
    const { run_id } = await oz.agent.run({ prompt: 'first' });
    const answer = (await oz.post(`/agent/runs/${run_id}/followups`, { body: { message: 'and then', mode: 'normal' } })) as Record<string, unknown>;
    expect(answer).toMatchObject({ run_id, state: 'QUEUED' });
    const refused = await oz.post(`/agent/runs/${run_id}/followups`, { body: { message: 'plan it', mode: 'plan' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(JSON.stringify((refused as BadRequestError).error)).toContain('$.mode');
  });

  it('conversation and transcript: blocks in Oz shapes (action_result output an object); the transcript redirect followed to JSON Lines', async () => {
    const { run_id } = await oz.agent.run({ prompt: 'Use the tool.' });
    // What a model run records for a tool call whose arguments were not JSON (test setup: two content events).
    const { db } = server.ctx;
    const step = await db.selectFrom('run_steps').select('id').where('run_id', '=', run_id).executeTakeFirstOrThrow();
    const { event_seq } = await db.selectFrom('runs').select('event_seq').where('id', '=', run_id).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const recorded: Array<[string, string, object]> = [
      ['msg_a', 'assistant', { type: 'action', id: 'call_1', category: 'integration', name: 'search', input: { unparsed_arguments: '{"q": ' } }],
      [
        'msg_t',
        'tool',
        {
          type: 'action_result',
          action_id: 'call_1',
          category: 'integration',
          name: 'search',
          state: 'failed',
          output: { text: 'The tool arguments are not valid JSON.' },
        },
      ],
    ];
    await db
      .insertInto('run_events')
      .values(
        recorded.map(([message_id, role, block], i) => ({
          run_id,
          team_id: teamId,
          seq: Number(event_seq) + i + 1,
          kind: 'content' as const,
          created_at: at,
          step_id: step.id,
          data: JSON.stringify({ run_id, step_id: step.id, message_id, role, timestamp: at, block }),
        })),
      )
      .execute();
    await setRun(run_id, { event_seq: Number(event_seq) + recorded.length });
    const conversation = (await oz.get(`/agent/runs/${run_id}/conversation`)) as {
      conversation_id: string;
      steps: Array<{ messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }>;
    };
    expect(conversation.conversation_id).toBe(`conv_${run_id}`);
    const blocks = conversation.steps[0]!.messages.flatMap((m) => m.content);
    expect(blocks.find((b) => b.type === 'action')).toMatchObject({ category: 'integration', input: { unparsed_arguments: '{"q": ' } });
    expect(blocks.find((b) => b.type === 'action_result')).toMatchObject({ output: { text: 'The tool arguments are not valid JSON.' } });

    const transcript = (await oz.get(`/agent/runs/${run_id}/transcript`)) as string;
    const lines = transcript
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string; content: unknown[] });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant', 'tool']);
    expect(lines.map((l) => l.content)).toEqual(conversation.steps[0]!.messages.map((m) => m.content));
    await expect(oz.get('/agent/runs/00000000-0000-4000-8000-000000000000/transcript')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('environments in the Oz CloudEnvironment shape, both sorts; Oz fields it cannot honour refused by name', async () => {
    const created = (await oz.post('/agent/environments', { body: { name: 'oz-env-b', description: 'B', setup_commands: ['true'] } })) as Record<
      string,
      unknown
    >;
    await oz.post('/agent/environments', { body: { name: 'oz-env-a' } });
    const { environments } = (await oz.get('/agent/environments', { query: { sort_by: 'name' } })) as { environments: Array<Record<string, any>> };
    const names = environments.map((e) => e.config.name);
    expect(names).toEqual([...names].sort());
    const env = environments.find((e) => e.uid === created.uid)!;
    expect(env).toMatchObject({
      uid: expect.stringMatching(/^env_/),
      config: { name: 'oz-env-b', description: 'B', setup_commands: ['true'] },
      last_updated: expect.any(String),
      setup_failed: false,
      scope: { type: 'Team', uid: teamId },
      creator: { type: 'service_account' },
    });
    const byDefault = (await oz.get('/agent/environments')) as { environments: Array<{ config: { name: string } }> };
    expect(byDefault.environments[0]!.config.name).toBe('oz-env-a'); // most recently updated first
    const refused = await oz
      .post('/agent/environments', { body: { name: 'oz-env-img', docker_image: '10.1.2.3:5000/ubuntu:latest' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).error).toMatchObject({ errors: [{ path: '$.docker_image' }] });
  });

  it('models and agents: GET /agent/models and GET /agent (agent.list) with its parameters', async () => {
    const models = (await oz.get('/agent/models')) as { default_model_id: string; models: Array<{ id: string; provider: string; vision_supported: boolean }> };
    expect(models).toEqual({
      default_model_id: 'echo',
      models: [expect.objectContaining({ id: 'echo', display_name: 'echo', provider: 'UNKNOWN', vision_supported: false })],
    });

    const { run_id } = await oz.agent.run({ skill: SKILL });
    const listed = await oz.agent.list({ repo: 'acme/skills', sort_by: 'last_run', refresh: true });
    expect(listed.agents).toEqual([
      {
        name: 'review',
        variants: [
          expect.objectContaining({
            id: SKILL,
            description: 'Review a change',
            base_prompt: 'Review it.\n',
            source: { owner: 'acme', name: 'skills', skill_path: 'skills/review/SKILL.md' },
            last_run_timestamp: (await oz.agent.runs.retrieve(run_id)).created_at,
          }),
        ],
      },
    ]);
    const all = await oz.agent.list({}, { query: { include_malformed_skills: true } });
    expect(all.agents.flatMap((a) => a.variants.map((v) => v.id))).toContain('agent-runs/bundled:create-skill/SKILL.md');
    // A variant's id starts a run, as an Oz client does with the agent it picked.
    expect((await oz.agent.run({ skill: 'agent-runs/bundled:create-skill/SKILL.md' })).state).toBe('QUEUED');
    await expect(oz.agent.list({ repo: 'not a repo' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('a member key reads what Oz lets any caller read, and is refused (403) what needs an admin', async () => {
    const member = await server.createTeamWithKey('oz-member', 'member');
    const asMember = new OzAPI({ apiKey: member.apiKey, baseURL: server.apiUrl, maxRetries: 0 });
    expect(await asMember.agent.list()).toMatchObject({ agents: expect.any(Array) });
    expect(await asMember.get('/agent/environments')).toMatchObject({ environments: [] });
    await expect(asMember.post('/agent/environments', { body: { name: 'nope' } })).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
