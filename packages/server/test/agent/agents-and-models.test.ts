/**
 * GET /agent (Oz's listAgents: the skills a run can start from) and GET /agent/models (Oz's listModels)
 * over HTTP, responses validated against the contract: the skills root and the bundled skills, grouping,
 * malformed skills, the repo filter, last runs and sort_by=last_run; a bundled variant starts a run; the
 * model list of the echo runner and of a model runner whose provider lists, fails, and is asked again
 * only after MODEL_LIST_CACHE_SECONDS.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { availableBundledSkillIds, findBundledSkill } from '../../src/skills/catalog';
import { makeTempDir, testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel } from './support/fake-model';

function writeSkill(root: string, relative: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
}

interface Variant {
  id: string;
  description: string;
  base_prompt: string;
  source: { owner: string; name: string; skill_path: string };
  environments: Array<{ uid: string; name: string }>;
  last_run_timestamp: string | null;
  error?: string;
}
type Agents = { agents: Array<{ name: string; variants: Variant[] }> };

describe.each(testDatabases())('GET /agent (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let skillsDir: string;

  beforeAll(async () => {
    skillsDir = makeTempDir('agents-skills-');
    writeSkill(skillsDir, 'acme/skills/skills/triage/SKILL.md', '---\nname: triage\ndescription: Triage an issue\n---\nLabel the issue.\n');
    writeSkill(skillsDir, 'acme/tools/triage/SKILL.md', '---\nname: triage\ndescription: Triage from the tools repo\n---\nTriage it.\n');
    writeSkill(skillsDir, 'acme/tools/.claude/skills/deploy/SKILL.md', 'Deploy the service.\n');
    writeSkill(skillsDir, 'acme/tools/broken/SKILL.md', '---\nname: [not, a, string]\n---\nBroken front matter.\n');
    writeSkill(skillsDir, 'acme/tools/unclosed/SKILL.md', '---\nname: unclosed\nDo it.\n');
    writeSkill(skillsDir, 'acme/tools/huge/SKILL.md', `---\nname: huge\n---\n${'x'.repeat(262_145)}`);
    // Shadowed: the reserved repository is never read from the skills root.
    writeSkill(skillsDir, 'agent-runs/bundled/create-skill/SKILL.md', '---\nname: impostor\n---\nNot the bundled skill.\n');
    server = await startTestServer({ database, engine: false, env: { SKILLS_DIR: skillsDir } });
    api = apiClient(server.apiUrl, (await server.createTeamWithKey('agents', 'admin')).apiKey);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(skillsDir, { recursive: true, force: true });
  });

  const list = async (query = ''): Promise<Agents> => {
    const res = await api.get(`/agent${query}`);
    expect(res.status).toBe(200);
    return res.body as Agents;
  };
  const variantIds = (agents: Agents) => agents.agents.flatMap((a) => a.variants.map((v) => v.id));

  it('lists the skills root and the bundled skills, grouped by name, with what a run needs to start from each', async () => {
    const env = (await api.post('/agent/environments', { name: 'node' })).body;
    const { agents } = await list();
    expect(agents.map((a) => a.name)).toEqual([...agents.map((a) => a.name)].sort());
    const triage = agents.find((a) => a.name === 'triage')!;
    expect(triage.variants).toEqual([
      {
        id: 'acme/skills:skills/triage/SKILL.md',
        description: 'Triage an issue',
        base_prompt: 'Label the issue.\n',
        source: { owner: 'acme', name: 'skills', skill_path: 'skills/triage/SKILL.md' },
        environments: [{ uid: env.uid, name: 'node' }],
        last_run_timestamp: null,
      },
      expect.objectContaining({ id: 'acme/tools:triage/SKILL.md', description: 'Triage from the tools repo', base_prompt: 'Triage it.\n' }),
    ]);
    // Without front matter: named by its directory, no description, the whole file as instructions.
    expect(agents.find((a) => a.name === 'deploy')!.variants).toEqual([
      expect.objectContaining({ id: 'acme/tools:.claude/skills/deploy/SKILL.md', description: '', base_prompt: 'Deploy the service.\n' }),
    ]);
    // The bundled skills this server offers, under agent-runs/bundled, named by the catalogue.
    for (const id of availableBundledSkillIds()) {
      const agent = agents.find((a) => a.name === findBundledSkill(id)!.name)!;
      expect(agent.variants).toEqual([
        expect.objectContaining({
          id: `agent-runs/bundled:${id}/SKILL.md`,
          description: findBundledSkill(id)!.description,
          source: { owner: 'agent-runs', name: 'bundled', skill_path: `${id}/SKILL.md` },
        }),
      ]);
      expect(agent.variants[0]!.base_prompt.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(agents)).not.toContain('impostor');
    // Malformed skills are left out.
    expect(variantIds({ agents }).filter((id) => /broken|unclosed|huge/.test(id))).toEqual([]);
  });

  it('lists malformed skills with error when asked', async () => {
    const variants = (await list('?include_malformed_skills=true')).agents.flatMap((a) => a.variants);
    const errorOf = (id: string) => variants.find((v) => v.id === id)?.error;
    expect(errorOf('acme/tools:broken/SKILL.md')).toBe("the front matter's name is not a string");
    expect(errorOf('acme/tools:unclosed/SKILL.md')).toBe('the front matter is not closed by a --- line');
    expect(errorOf('acme/tools:huge/SKILL.md')).toBe('the SKILL.md is larger than 262144 bytes');
    expect(errorOf('acme/skills:skills/triage/SKILL.md')).toBeUndefined();
  });

  it('filters by repository; an unknown one lists nothing; a malformed one is a 400', async () => {
    expect(variantIds(await list('?repo=acme/skills'))).toEqual(['acme/skills:skills/triage/SKILL.md']);
    expect(variantIds(await list('?repo=agent-runs/bundled')).every((id) => id.startsWith('agent-runs/bundled:'))).toBe(true);
    expect((await list('?repo=nobody/nothing&refresh=true')).agents).toEqual([]);
    expectProblem(await api.get('/agent?repo=not-a-repo'), 400, 'invalid_request');
    expectProblem(await api.get('/agent?sort_by=recent'), 400, 'invalid_request');
  });

  it('says when a skill last ran (by its id or its name form) and sorts by it', async () => {
    const first = (await api.post('/agent/runs', { skill: 'acme/tools:.claude/skills/deploy/SKILL.md' })).body;
    await delay(5);
    const byName = (await api.post('/agent/runs', { skill: 'acme/skills:triage' })).body;
    const runAt = async (id: string) => (await api.get(`/agent/runs/${id}`)).body.created_at as string;
    const { agents } = await list('?sort_by=last_run');
    expect(agents.slice(0, 2).map((a) => a.name)).toEqual(['triage', 'deploy']);
    const triage = agents[0]!.variants.find((v) => v.id === 'acme/skills:skills/triage/SKILL.md')!;
    expect(triage.last_run_timestamp).toBe(await runAt(byName.run_id));
    expect(agents[1]!.variants[0]!.last_run_timestamp).toBe(await runAt(first.run_id));
    // Another team's runs say nothing about this team's agents.
    const other = apiClient(server.apiUrl, (await server.createTeamWithKey('agents-other', 'member')).apiKey);
    expect(((await other.get('/agent?repo=acme/skills')).body as Agents).agents[0]!.variants[0]!.last_run_timestamp).toBeNull();
  });

  it('a bundled variant starts a run: its id is a skill_spec that loads the bundled skill', async () => {
    const id = `agent-runs/bundled:${availableBundledSkillIds()[0]}/SKILL.md`;
    const created = await api.post('/agent/runs', { skill: id });
    expect(created.status).toBe(200);
    const run = (await api.get(`/agent/runs/${created.body.run_id}`)).body;
    expect(run.agent_config).toMatchObject({ skill_spec: id, name: findBundledSkill(availableBundledSkillIds()[0]!)!.name });
    expectProblem(await api.post('/agent/runs', { skill: 'agent-runs/bundled:appctrl' }), 400, 'invalid_request');
  });
});

describe('GET /agent/models', () => {
  it('echo runner: the id its runs record, as the default; no model is used', async () => {
    const server = await startTestServer({ engine: false });
    try {
      const api = apiClient(server.apiUrl, server.adminKey);
      const models = (await api.get('/agent/models')).body;
      expect(models).toEqual({
        default_model_id: 'echo',
        models: [
          { id: 'echo', display_name: 'echo', provider: 'UNKNOWN', vision_supported: false, description: expect.stringContaining('uses no language model') },
        ],
      });
      const { run_id } = (await api.post('/agent/runs', { prompt: 'p' })).body;
      expect((await api.get(`/agent/runs/${run_id}`)).body.agent_config.model_id).toBe(models.default_model_id);
    } finally {
      await server.close();
    }
  });

  it("model runner: the provider's list with DEFAULT_MODEL_ID first, kept for MODEL_LIST_CACHE_SECONDS; a failing provider leaves the default alone", async () => {
    const model = await FakeModel.start();
    const clock = new ManualClock(Date.parse('2026-11-27T09:00:00Z'));
    model.models = ['gpt-4.1', 'claude-sonnet-4', 'gemini-2.5-pro', 'llama-3.3-70b', 'o3-mini', 'gpt-4.1-mini'];
    const server = await startTestServer({
      engine: false,
      clock,
      env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'gpt-4.1-mini', MODEL_LIST_CACHE_SECONDS: '60' },
    });
    try {
      const api = apiClient(server.apiUrl, server.adminKey);
      const [first, second] = await Promise.all([api.get('/agent/models'), api.get('/agent/models')]);
      expect(first.body).toEqual(second.body);
      expect(model.modelListRequests).toBe(1); // concurrent requests share one call
      expect(first.body.default_model_id).toBe('gpt-4.1-mini');
      expect(first.body.models.map((m: { id: string; provider: string }) => [m.id, m.provider])).toEqual([
        ['gpt-4.1-mini', 'OPENAI'],
        ['claude-sonnet-4', 'ANTHROPIC'],
        ['gemini-2.5-pro', 'GOOGLE'],
        ['gpt-4.1', 'OPENAI'],
        ['llama-3.3-70b', 'UNKNOWN'],
        ['o3-mini', 'OPENAI'],
      ]);
      expect(first.body.models[0]).toMatchObject({
        display_name: 'gpt-4.1-mini',
        vision_supported: false,
        description: expect.stringContaining('DEFAULT_MODEL_ID'),
      });

      model.models = 'fail';
      clock.advance(59_000);
      expect((await api.get('/agent/models')).body.models).toHaveLength(6);
      expect(model.modelListRequests).toBe(1);
      clock.advance(1_000);
      expect((await api.get('/agent/models')).body).toEqual({ default_model_id: 'gpt-4.1-mini', models: [first.body.models[0]] });
      expect(model.modelListRequests).toBe(2);
      // The failure is kept for the same interval: a broken provider is asked once per interval.
      await api.get('/agent/models');
      expect(model.modelListRequests).toBe(2);
      model.models = ['gpt-4.1'];
      clock.advance(60_000);
      expect((await api.get('/agent/models')).body.models.map((m: { id: string }) => m.id)).toEqual(['gpt-4.1-mini', 'gpt-4.1']);
    } finally {
      await server.close();
      await model.close();
    }
  });
});
