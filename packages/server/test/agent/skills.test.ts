/**
 * Skills: the bundled catalogue, skill_spec resolution against a fixture skills root (and what it
 * refuses), the config defaults it drives, and read_skill actions recorded by the model runner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelRunner } from '../../src/engine/runners/model';
import { InvalidConfigError, resolveRunnerConfig } from '../../src/engine/runners/model-config';
import { advertisedSkills, availableBundledSkillIds, BUNDLED_SKILLS, bundledSkillFile, listBundledSkills } from '../../src/skills/catalog';
import { parseSkillFrontMatter, parseSkillSpec, resolveSkillSpec, SkillError } from '../../src/skills/resolve';
import { FakeModel, text, toolCalls } from './support/fake-model';
import { buildRunContext, type TestRun } from './support/run-context';

const skillsRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skills-root');

const SEED_IDS = [
  'add-mcp-server',
  'change-keybinding',
  'model-api',
  'create-skill',
  'create-tab-config',
  'factory-files',
  'factory-mcp',
  'modify-settings',
  'service-platform',
  'pr-comments',
  'tab-configs',
  'tui-migrate-setup',
  'update-tab-config',
  'appctrl',
];

describe('bundled skill catalogue', () => {
  it('lists the 14 stable ids of the seed', () => {
    expect(BUNDLED_SKILLS.map((s) => s.id).sort()).toEqual([...SEED_IDS].sort());
    expect(listBundledSkills().every((s) => s.bundled === true && s.name !== '' && s.description !== '')).toBe(true);
  });

  it('ships real SKILL.md content for the server-side skills and marks the desktop-only ones unavailable', () => {
    for (const id of ['service-platform', 'create-skill', 'add-mcp-server', 'model-api', 'factory-files']) {
      expect(availableBundledSkillIds()).toContain(id);
      const content = fs.readFileSync(bundledSkillFile(id), 'utf8');
      expect(parseSkillFrontMatter(content)).toMatchObject({ name: id });
      expect(content.length).toBeGreaterThan(1500);
    }
    for (const id of ['change-keybinding', 'appctrl', 'create-tab-config', 'tab-configs', 'update-tab-config', 'tui-migrate-setup', 'factory-mcp']) {
      expect(listBundledSkills().find((s) => s.id === id)?.available).toBe(false);
    }
  });

  it('advertises the available bundled ids plus the run skill_spec', () => {
    expect(advertisedSkills({})).toEqual([...availableBundledSkillIds()]);
    expect(advertisedSkills({ skill_spec: 'acme/skills:code-review' })).toEqual([...availableBundledSkillIds(), 'acme/skills:code-review']);
  });
});

describe('skill_spec resolution', () => {
  it.each([
    ['acme/skills:code-review', 'code-review', 'acme/skills/skills/code-review/SKILL.md', 'Review a diff for risky changes.'],
    ['acme/tools:triage', 'issue-triage', 'acme/tools/triage/SKILL.md', 'Label and prioritise new issues.'],
    ['acme/skills:docs/deploy/SKILL.md', 'deploy', 'acme/skills/docs/deploy/SKILL.md', undefined],
  ])('%s → %s at %s', async (spec, name, skillPath, description) => {
    const skill = await resolveSkillSpec(skillsRoot, spec);
    expect(skill.name).toBe(name);
    expect(skill.skillPath).toBe(skillPath);
    expect(skill.description).toBe(description);
    expect(skill.bundledSkillId).toBeUndefined();
    expect(skill.content).toContain('#');
  });

  it.each([
    ['no colon', 'acme/skills'],
    ['no repo', 'acme:code-review'],
    ['parent segments', 'acme/skills:../tools/triage/SKILL.md'],
    ['absolute path', 'acme/skills:/etc/passwd.md'],
    ['dot owner', '../skills:code-review'],
    ['not markdown', 'acme/skills:docs/deploy/run.sh'],
    ['backslash', 'acme/skills:docs\\deploy\\SKILL.md'],
  ])('refuses a malformed spec (%s)', (_why, spec) => {
    expect(() => parseSkillSpec(spec)).toThrow(SkillError);
  });

  it('reports a missing repository or file as skill_not_found', async () => {
    await expect(resolveSkillSpec(skillsRoot, 'acme/nothing:code-review')).rejects.toMatchObject({ code: 'skill_not_found' });
    await expect(resolveSkillSpec(skillsRoot, 'acme/skills:no-such-skill')).rejects.toMatchObject({
      code: 'skill_not_found',
      message: expect.stringContaining('acme/skills/skills/no-such-skill/SKILL.md or acme/skills/no-such-skill/SKILL.md'),
    });
  });

  it('refuses a symlink that leaves the repository', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-root-'));
    try {
      fs.mkdirSync(path.join(root, 'evil', 'repo', 'skills', 'x'), { recursive: true });
      fs.writeFileSync(path.join(root, 'secret.md'), 'outside');
      fs.symlinkSync(path.join(root, 'secret.md'), path.join(root, 'evil', 'repo', 'skills', 'x', 'SKILL.md'));
      await expect(resolveSkillSpec(root, 'evil/repo:x')).rejects.toMatchObject({ code: 'invalid_skill_spec' });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('needs a skills root', async () => {
    await expect(resolveSkillSpec(undefined, 'acme/skills:code-review')).rejects.toMatchObject({ code: 'skills_dir_not_configured' });
  });
});

describe('resolveRunnerConfig', () => {
  const base = { defaultModelId: 'default-model', skillsDir: skillsRoot };

  it('fills name from the skill, the model and the three limits for a model run', async () => {
    expect(await resolveRunnerConfig({ skill_spec: 'acme/tools:triage' }, { ...base, runner: 'model' })).toEqual({
      skill_spec: 'acme/tools:triage',
      name: 'issue-triage',
      model_id: 'default-model',
      max_turns: 20,
      model_call_timeout_seconds: 120,
      run_timeout_seconds: 1800,
    });
  });

  it('keeps an explicit name and limits, and adds no limits for other runners', async () => {
    expect(await resolveRunnerConfig({ name: 'mine', skill_spec: 'acme/tools:triage', max_turns: 5 }, { ...base, runner: 'model' })).toMatchObject({
      name: 'mine',
      max_turns: 5,
    });
    expect(await resolveRunnerConfig({ skill_spec: 'acme/tools:triage' }, { ...base, runner: 'echo' })).toEqual({
      skill_spec: 'acme/tools:triage',
      name: 'issue-triage',
    });
  });

  it('refuses a skill_spec that does not resolve and out-of-range limits, naming the field', async () => {
    const missing = await resolveRunnerConfig({ skill_spec: 'acme/skills:nope' }, { ...base, runner: 'model' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidConfigError);
    expect(missing).toMatchObject({ errors: [{ path: '$.config.skill_spec' }] });
    const limits = await resolveRunnerConfig({ max_turns: 201 }, { ...base, runner: 'model' }).catch((e: unknown) => e);
    expect(limits).toBeInstanceOf(InvalidConfigError);
    expect(limits).toMatchObject({ errors: [{ path: '$.config.max_turns' }] });
  });

  it('does not throw for runs nobody waits on (strict: false): the run fails at start instead', async () => {
    expect(await resolveRunnerConfig({ skill_spec: 'acme/skills:nope' }, { ...base, runner: 'model', strict: false })).toMatchObject({
      name: 'nope',
      model_id: 'default-model',
    });
  });

  it('refuses a model run without any model id', async () => {
    await expect(resolveRunnerConfig({}, { runner: 'model', defaultModelId: undefined, skillsDir: undefined })).rejects.toMatchObject({
      name: 'InvalidConfigError',
      errors: [{ path: '$.config.model_id' }],
    });
  });
});

describe('read_skill actions of a model run', () => {
  let model: FakeModel;
  const runs: TestRun[] = [];
  beforeEach(async () => {
    model = await FakeModel.start();
  });
  afterEach(async () => {
    await model.close();
    for (const r of runs.splice(0)) r.cleanup();
  });
  const runner = () => createModelRunner({ baseUrl: model.url, skillsDir: skillsRoot, retry: { maxAttempts: 1 } });
  const testRun = (options: Parameters<typeof buildRunContext>[0]) => {
    const run = buildRunContext(options);
    runs.push(run);
    return run;
  };

  it('records the skill_spec load at start with skill_path, and uses the skill as the base prompt', async () => {
    model.reply(text('Reviewed.'));
    const run = testRun({ config: { model_id: 'm', base_prompt: 'Be kind.', skill_spec: 'acme/skills:code-review' } });
    expect((await runner().run(run.ctx)).state).toBe('SUCCEEDED');

    const skillFile = fs.readFileSync(path.join(skillsRoot, 'acme/skills/skills/code-review/SKILL.md'), 'utf8');
    expect(model.requests[0]!.body.messages[0]).toEqual({ role: 'system', content: `Be kind.\n\n${skillFile}` });
    expect(run.conversation.messages.slice(0, 2)).toEqual([
      {
        turn: 1,
        role: 'assistant',
        content: [
          {
            type: 'action',
            id: `skill_spec_${run.ctx.runId}`,
            category: 'skill',
            name: 'read_skill',
            input: { name: 'code-review', skill_path: 'acme/skills/skills/code-review/SKILL.md' },
          },
        ],
      },
      {
        turn: 1,
        role: 'tool',
        content: [
          {
            type: 'action_result',
            action_id: `skill_spec_${run.ctx.runId}`,
            category: 'skill',
            name: 'read_skill',
            state: 'completed',
            output: { text: skillFile },
          },
        ],
      },
    ]);
    // The run's own skill is advertised to read_skill beside the bundled ones.
    expect(model.requests[0]!.body.tools[0].function.description).toContain('- acme/skills:code-review: Review a diff for risky changes.');
  });

  it('records a bundled load with bundled_skill_id, a path load with skill_path, and a path-referenced copy of a bundled skill with skill_path only', async () => {
    model.reply(
      toolCalls([
        { id: 'a', name: 'read_skill', arguments: { skill: 'factory-files' } },
        { id: 'b', name: 'read_skill', arguments: { skill: 'acme/skills:docs/deploy/SKILL.md' } },
        { id: 'c', name: 'read_skill', arguments: { skill: 'acme/mirror:service-platform' } },
        { id: 'd', name: 'read_skill', arguments: { skill: 'appctrl' } },
        { id: 'e', name: 'read_skill', arguments: { skill: 'acme/skills:../../etc/passwd.md' } },
      ]),
      text('ok'),
    );
    const run = testRun({ config: { model_id: 'm' } });
    await runner().run(run.ctx);

    expect(run.conversation.actions().map((a) => [a.id, a.category, a.name, a.input])).toEqual([
      ['a', 'skill', 'read_skill', { name: 'Factory files', bundled_skill_id: 'factory-files' }],
      ['b', 'skill', 'read_skill', { name: 'deploy', skill_path: 'acme/skills/docs/deploy/SKILL.md' }],
      ['c', 'skill', 'read_skill', { name: 'service-platform', skill_path: 'acme/mirror/skills/service-platform/SKILL.md' }],
      ['d', 'skill', 'read_skill', { name: 'appctrl' }],
      ['e', 'skill', 'read_skill', { name: 'acme/skills:../../etc/passwd.md' }],
    ]);
    expect(run.conversation.results().map((r) => [r.action_id, r.state])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
      ['c', 'completed'],
      ['d', 'failed'],
      ['e', 'failed'],
    ]);
    const tool = (id: string) => model.requests[1]!.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === id).content;
    expect(tool('a')).toBe(fs.readFileSync(bundledSkillFile('factory-files'), 'utf8'));
    expect(tool('b')).toContain('Run the deploy script');
    expect(tool('d')).toContain('not available on this server');
  });

  it('fails the run at start with skill_not_found when the skill disappeared after create', async () => {
    const run = testRun({ config: { model_id: 'm', skill_spec: 'acme/skills:gone' } });
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({
      state: 'FAILED',
      statusMessage: { message: expect.stringContaining('acme/skills:gone'), error_code: 'skill_not_found', retryable: false },
    });
    expect(model.requests).toHaveLength(0);
  });
});
