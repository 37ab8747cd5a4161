// The published Oz client (`oz-agent-sdk`, the npm release) pointed at this server over real HTTP: what an
// existing Oz integration does — create runs (with the Oz fields this server honours, and the ones it
// refuses by name), list them with Oz's filters, retrieve, cancel — works beyond the happy path
// (docs/decisions.md §Oz parity).
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OzAPI, { BadRequestError, NotFoundError } from 'oz-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let counter = 0;
const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${++counter}`;
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Polls `probe` until it answers something other than undefined, failing after `ms`. */
async function eventually<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('oz-agent-sdk against this server', () => {
  let server: TestServer;
  let oz: OzAPI;
  let skillsDir: string;
  const SKILL = 'acme/skills:triage';

  beforeAll(async () => {
    skillsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oz-skills-'));
    fs.mkdirSync(path.join(skillsDir, 'acme/skills/skills/triage'), { recursive: true });
    fs.writeFileSync(path.join(skillsDir, 'acme/skills/skills/triage/SKILL.md'), '---\nname: triage\ndescription: Triage an issue\n---\nLabel the issue.\n');
    // A slow echo keeps runs cancellable for a moment.
    server = await startTestServer({ env: { ECHO_DELAY_MS: '400', SKILLS_DIR: skillsDir } });
    oz = new OzAPI({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(skillsDir, { recursive: true, force: true });
  });

  it('agent.run → runs.retrieve: the Oz RunItem fields, images as attachments, metadata and parent through extra body fields', async () => {
    const parent = await oz.agent.run({
      prompt: `Parent ${unique('p')}`,
      title: 'Oz parent',
      team: true,
      config: { name: 'oz-e2e', computer_use_enabled: true, worker_host: 'warp' },
    });
    expect(parent).toMatchObject({ run_id: expect.any(String), task_id: parent.run_id, state: 'QUEUED' });

    // alpha.8 has no metadata / parent_run_id parameters; Stainless clients send extra body fields as given.
    const child = await oz.agent.run({
      prompt: 'Look at the screenshot',
      images: [{ data: PNG_1PX, mime_type: 'image/png' }],
      ...({ metadata: { ticket_id: 'VIS-238' }, parent_run_id: parent.run_id } as object),
    });
    const run = await oz.agent.runs.retrieve(child.run_id);
    expect(run).toMatchObject({
      run_id: child.run_id,
      title: 'Look at the screenshot',
      source: 'API',
      artifacts: [],
      scope: { type: 'Team' },
    });
    const raw = run as unknown as Record<string, unknown>;
    expect(raw).toMatchObject({
      metadata: { ticket_id: 'VIS-238' },
      parent_run_id: parent.run_id,
      is_run_type_cancellable: true,
      execution_location: 'REMOTE',
    });
    expect(raw.attachments).toEqual([{ file_name: 'image-1.png', mime_type: 'image/png', size: Buffer.from(PNG_1PX, 'base64').length }]);
    expect(raw.executor).toEqual(run.creator);

    const done = await eventually(
      async () => {
        const r = await oz.agent.runs.retrieve(parent.run_id);
        return r.state === 'SUCCEEDED' ? r : undefined;
      },
      20_000,
      'the parent to succeed',
    );
    expect((done as unknown as { run_time: string }).run_time).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
  });

  it('a skill-only run (no prompt): the prompt names the skill, the skill is the agent config', async () => {
    const created = await oz.agent.run({ skill: SKILL });
    const run = await oz.agent.runs.retrieve(created.run_id);
    expect(run.prompt).toBe(`Follow the instructions of the skill ${SKILL}.`);
    expect(run.agent_config).toMatchObject({ skill_spec: SKILL, name: 'triage' });
  });

  it('refuses, naming the field, what it cannot honour: conversation_id, team false, an MCP server by warp_id, a run without prompt or skill', async () => {
    const refused = async (body: Parameters<OzAPI['agent']['run']>[0], field: string) => {
      const err = await oz.agent.run(body).catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(BadRequestError);
      expect(JSON.stringify((err as BadRequestError).error), field).toContain(field);
    };
    await refused({ prompt: 'continue', conversation_id: 'conv_x' }, 'conversation_id');
    await refused({ prompt: 'mine', team: false }, 'team');
    await refused({ prompt: 'mcp', config: { mcp_servers: { linear: { warp_id: 'linear' } } } }, 'mcp_servers');
    await refused({ title: 'nothing to do' }, 'prompt');
  });

  it('runs.list with Oz filters: q, skill/skill_spec, environment_id, state, source, creator, name, metadata, ancestor; an unknown schedule matches nothing, artifact filters no echo run (it publishes none)', async () => {
    const marker = unique('needle');
    const parent = await oz.agent.run({ prompt: `Find the ${marker} in the haystack`, config: { name: marker } });
    const child = await oz.agent.run({ prompt: 'child work', ...({ parent_run_id: parent.run_id, metadata: { team: 'infra', ticket: marker } } as object) });
    const grandchild = await oz.agent.run({ prompt: 'grandchild work', ...({ parent_run_id: child.run_id } as object) });
    const skillRun = await oz.agent.run({ skill: SKILL, title: marker.toUpperCase() });
    const ids = async (query: Parameters<OzAPI['agent']['runs']['list']>[0]) => (await oz.agent.runs.list(query)).runs.map((r) => r.run_id).sort();

    expect(await ids({ q: marker.toUpperCase() })).toEqual([parent.run_id, skillRun.run_id].sort());
    expect(await ids({ skill: SKILL, q: marker })).toEqual([skillRun.run_id]);
    expect(await ids({ skill_spec: SKILL, q: marker })).toEqual([skillRun.run_id]);
    expect(await ids({ environment_id: 'empty-environment', q: marker })).toEqual([parent.run_id, skillRun.run_id].sort());
    expect(await ids({ environment_id: 'env_none', q: marker })).toEqual([]);
    expect(await ids({ name: marker, source: 'API', state: ['QUEUED', 'INPROGRESS', 'SUCCEEDED'] })).toEqual([parent.run_id]);
    expect(await ids({ source: 'LINEAR', q: marker })).toEqual([]);
    expect(await ids({ schedule_id: 'sched_1' })).toEqual([]);
    expect(await ids({ artifact_type: 'PLAN' })).toEqual([]);

    // Parameters alpha.8 does not declare travel as extra query (deepObject for metadata).
    const extra = (query: Record<string, unknown>) => oz.agent.runs.list({}, { query }).then((page) => page.runs.map((r) => r.run_id).sort());
    expect(await extra({ metadata: { team: 'infra', ticket: marker } })).toEqual([child.run_id, grandchild.run_id].sort());
    expect(await extra({ metadata: { team: 'infra', ticket: 'other' } })).toEqual([]);
    expect(await extra({ ancestor_run_id: parent.run_id })).toEqual([child.run_id, grandchild.run_id].sort());
    expect(await extra({ ancestor_run_id: child.run_id })).toEqual([grandchild.run_id]);
    expect(await extra({ execution_location: 'LOCAL' })).toEqual([]);
    const me = (await oz.agent.runs.retrieve(parent.run_id)).creator!.uid!;
    expect(await extra({ executor: me, q: marker })).toEqual([parent.run_id, skillRun.run_id].sort());

    const byTitle = (await oz.agent.runs.list({}, { query: { sort_by: 'title', sort_order: 'asc', q: marker } })).runs.map((r) => r.title);
    expect(byTitle).toEqual([...byTitle].sort());
    const byAgent = (await oz.agent.runs.list({}, { query: { sort_by: 'agent', sort_order: 'asc', q: marker } })).runs.map((r) => r.run_id);
    expect(byAgent[0]).toBe(skillRun.run_id); // runs with a skill come first, runs without one after

    const unknownAncestor = await oz.agent.runs.list({}, { query: { ancestor_run_id: '00000000-0000-4000-8000-000000000000' } }).catch((e: unknown) => e);
    expect(unknownAncestor).toBeInstanceOf(BadRequestError);
  });

  it('pagination: next_cursor walks every page', async () => {
    const name = unique('paged');
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await oz.agent.run({ prompt: `page ${i}`, config: { name } })).run_id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await oz.agent.runs.list({ name, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.runs.map((r) => r.run_id));
      cursor = page.page_info.has_next_page ? page.page_info.next_cursor : undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(created.sort());
  });

  it("runs.cancel: the run id as a string; a finished run → 400 as in Oz's contract; an unknown run → 404", async () => {
    const created = await oz.agent.run({ prompt: 'cancel me' });
    expect(await oz.agent.runs.cancel(created.run_id)).toBe(created.run_id);
    expect((await oz.agent.runs.retrieve(created.run_id)).state).toBe('CANCELLED');
    // Cancelled is terminal: a second cancel answers 400 invalid_request.
    await expect(oz.agent.runs.cancel(created.run_id)).rejects.toBeInstanceOf(BadRequestError);
    await expect(oz.agent.runs.cancel('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });
});
