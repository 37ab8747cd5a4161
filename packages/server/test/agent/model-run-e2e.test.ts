/**
 * A model run end to end through the real server (RUNNER=model against the fake provider): skill_spec,
 * cloud environment, MCP over streamable HTTP, conversation, usage (also of a cancelled run), follow-up resume.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBundledSkillIds } from '../../src/skills/catalog';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel, text, toolCalls, usage } from './support/fake-model';
import { startMcpHttpServer, type TestMcpHttpServer } from './support/mcp-http';

const skillsRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skills-root');

describe('model run through the server', () => {
  let server: TestServer;
  let model: FakeModel;
  let mcp: TestMcpHttpServer;
  let key: string;

  beforeAll(async () => {
    model = await FakeModel.start();
    mcp = await startMcpHttpServer('remote');
    server = await startTestServer({
      env: {
        RUNNER: 'model',
        MODEL_BASE_URL: model.url,
        MODEL_API_KEY: 'sk-e2e',
        DEFAULT_MODEL_ID: 'e2e-model',
        SKILLS_DIR: skillsRoot,
        // The MCP server is on loopback: the egress policy refuses it unless its exact address is listed.
        SANDBOX_ALLOWED_HOSTS: new URL(mcp.url).host,
      },
    });
    key = (await server.createTeamWithKey('e2e', 'admin')).apiKey;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await mcp?.close();
    await model?.close();
  });

  async function call(method: string, p: string, body?: unknown) {
    const res = await fetch(`${server.apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function waitForState(runId: string, states: string[]) {
    const until = Date.now() + 20_000;
    for (;;) {
      const run = await call('GET', `/agent/runs/${runId}`);
      if (states.includes(run.body.state)) return run.body;
      if (Date.now() > until) throw new Error(`run stayed ${run.body.state}`);
      await delay(50);
    }
  }

  it('runs the skill with the environment and MCP tools, records everything and resumes on a follow-up', async () => {
    const env = await call('POST', '/agent/environments', {
      name: 'e2e-env',
      setup_commands: ['printf ready > setup.txt'],
      env_vars: { SERVICE_TOKEN: 'tok_e2e' },
    });
    expect(env.status).toBe(201);

    model.reply(toolCalls([{ id: 'call_1', name: 'remote__echo', arguments: { text: 'hi' } }], usage(50, 5)), text('Triaged.', usage(60, 3)));
    const created = await call('POST', '/agent/runs', {
      prompt: 'Triage issue 7.',
      config: { skill_spec: 'acme/tools:triage', environment_id: env.body.uid, mcp_servers: { remote: { url: mcp.url } } },
    });
    expect(created.status).toBe(200);
    const run = await waitForState(created.body.run_id, ['SUCCEEDED', 'FAILED', 'ERROR']);
    expect(run.state).toBe('SUCCEEDED');
    expect(run.agent_config).toMatchObject({
      name: 'issue-triage',
      model_id: 'e2e-model',
      max_turns: 20,
      model_call_timeout_seconds: 120,
      run_timeout_seconds: 1800,
    });
    expect(run.usage).toEqual(usage(110, 8));
    expect(run.available_skills).toEqual([...availableBundledSkillIds(), 'acme/tools:triage']);

    expect(model.requests[0]!.headers.authorization).toBe('Bearer sk-e2e');
    expect(model.requests[0]!.body.messages[0].content).toContain('Label the issue, then set its priority.');
    expect(model.requests[0]!.body.messages[1]).toEqual({ role: 'user', content: 'Triage issue 7.' });
    expect(mcp.events).toContain('echo:hi');

    const conversation = await call('GET', `/agent/runs/${created.body.run_id}/conversation`);
    const blocks = conversation.body.steps.flatMap((s: { messages: Array<{ content: unknown[] }> }) => s.messages.flatMap((m) => m.content));
    expect(blocks).toEqual(
      expect.arrayContaining([
        { type: 'text', text: 'Triage issue 7.' },
        expect.objectContaining({
          type: 'action',
          category: 'skill',
          name: 'read_skill',
          input: { name: 'issue-triage', skill_path: 'acme/tools/triage/SKILL.md' },
        }),
        { type: 'action', id: 'call_1', category: 'integration', name: 'echo', input: { text: 'hi' } },
        expect.objectContaining({ type: 'action_result', action_id: 'call_1', state: 'completed', output: { text: 'remote echoes: hi' } }),
        { type: 'text', text: 'Triaged.' },
      ]),
    );

    // A follow-up to the finished run resumes the same conversation.
    model.reply(text('Priority: high.', usage(80, 4)));
    const followup = await call('POST', `/agent/runs/${created.body.run_id}/followups`, { message: 'What priority?' });
    expect(followup.status).toBe(200);
    const resumed = await waitForState(created.body.run_id, ['SUCCEEDED', 'FAILED', 'ERROR']);
    expect(resumed.state).toBe('SUCCEEDED');
    const last = model.requests.at(-1)!.body.messages;
    expect(last.at(-1)).toEqual({ role: 'user', content: 'What priority?' });
    expect(last.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  }, 30_000);

  it('shows the usage so far while the run works, and keeps it when the run is cancelled', async () => {
    model.reply(toolCalls([{ id: 'call_1', name: 'read_skill', arguments: { skill: 'service-platform' } }], usage(40, 4)), { kind: 'hang' });
    const created = await call('POST', '/agent/runs', { prompt: 'Read the platform skill, then think forever.' });
    const runId = created.body.run_id as string;
    const until = Date.now() + 20_000;
    let working = (await call('GET', `/agent/runs/${runId}`)).body;
    while (working.usage === undefined && Date.now() < until) {
      await delay(50);
      working = (await call('GET', `/agent/runs/${runId}`)).body;
    }
    expect(working).toMatchObject({ state: 'INPROGRESS', usage: usage(40, 4) }); // the second model call is still open

    expect((await call('POST', `/agent/runs/${runId}/cancel`)).status).toBe(200);
    const cancelled = await waitForState(runId, ['CANCELLED']);
    expect(cancelled.usage).toEqual(usage(40, 4));
  }, 30_000);

  it('fails a run whose environment setup fails with environment_setup_failed', async () => {
    const env = await call('POST', '/agent/environments', { name: 'e2e-broken', setup_commands: ['exit 4'] });
    const created = await call('POST', '/agent/runs', { prompt: 'x', config: { environment_id: env.body.uid } });
    const run = await waitForState(created.body.run_id, ['SUCCEEDED', 'FAILED', 'ERROR']);
    expect(run.state).toBe('FAILED');
    expect(run.status_message).toMatchObject({ error_code: 'environment_setup_failed', retryable: false });
  }, 30_000);

  it('refuses a skill_spec that does not resolve with 400 naming the field', async () => {
    const res = await call('POST', '/agent/runs', { prompt: 'x', config: { skill_spec: 'acme/skills:missing' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: '$.config.skill_spec' })]);
  });
});
