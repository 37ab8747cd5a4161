/**
 * Third-party harnesses through the public API: the real Codex and Claude Code CLIs from npm (installed
 * by the test setup with `pnpm harnesses:install`'s code), in the real sandbox, reaching a scripted
 * provider only through the model gateway. The provider scripts one tool call that writes a file in the
 * workspace (and looks for the operator's keys everywhere it can), then a final answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { processesWithEnv } from '../support/processes';
import { sandboxAvailable, withRunWorkspace } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';
import { INSTALL_TIMEOUT_MS, installedHarnesses } from './support/installed-harnesses';
import { SCRIPTED_GEMINI_CHAT_USAGE } from './support/scripted-gemini-chat';
import { SCRIPTED_USAGE, ScriptedProvider } from './support/scripted-provider';

const OPERATOR = { openai: 'sk-operator-openai-51c9', anthropic: 'sk-ant-operator-a3d0', gemini: 'AIza-operator-gemini-77e1' };
/** A key split in two, so the command that looks for it (recorded in the conversation) never holds it whole. */
const split = (key: string) => `"${key.slice(0, 6)}""${key.slice(6)}"`;
/** Writes the file, then reports any operator key in the environment, the files or any process's environ or cmdline. */
const toolCommand = (file: string) =>
  [
    `echo "made by the harness" > ${file}`,
    `for k in ${Object.values(OPERATOR).map(split).join(' ')}; do env | grep -q "$k" && echo "LE""AK env"; grep -rqs "$k" /workspace /tmp /etc /proc/[0-9]*/environ /proc/[0-9]*/cmdline && echo "LE""AK files"; done`,
    // Anything but the gateway is refused by the egress policy: the CLI goes on, the run notes it.
    'curl -s -o /dev/null -w "egress=%{http_code}\\n" http://blocked.example.com/',
    'echo checked',
  ].join('; ');

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
type Json = any;

async function untilFinished(client: RestClient, runId: string, after?: string): Promise<Json> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = (await client.get(`/agent/runs/${runId}`)).body;
    if (TERMINAL.includes(run.state) && run.updated_at !== after) return run;
    if (Date.now() > deadline) return run;
    await delay(100);
  }
}

const blocksOf = (conversation: Json): Json[] =>
  conversation.steps.flatMap((t: Json) => t.messages.flatMap((m: Json) => m.content.map((c: Json) => ({ role: m.role, ...c }))));

const CASES = [
  {
    type: 'claude',
    file: 'claude.txt',
    tool: 'Bash',
    protocol: 'messages',
    key: (r: Json) => r.headers['x-api-key'],
    model: (r: Json) => r.body.model,
    operatorKey: OPERATOR.anthropic,
    usage: { prompt_tokens: 2 * SCRIPTED_USAGE.messages.input_tokens, completion_tokens: 2 * SCRIPTED_USAGE.messages.output_tokens },
  },
  {
    type: 'codex',
    file: 'codex.txt',
    tool: 'exec_command',
    protocol: 'responses',
    key: (r: Json) => r.headers.authorization?.replace(/^Bearer /, ''),
    model: (r: Json) => r.body.model,
    operatorKey: OPERATOR.openai,
    usage: { prompt_tokens: 2 * SCRIPTED_USAGE.responses.input_tokens, completion_tokens: 2 * SCRIPTED_USAGE.responses.output_tokens },
  },
  {
    type: 'gemini',
    file: 'gemini.txt',
    tool: 'run_shell_command',
    protocol: 'gemini',
    key: (r: Json) => r.headers['x-goog-api-key'],
    // Gemini names the model in the path.
    model: (r: Json) => /\/models\/([^:]+):/.exec(r.path)?.[1],
    operatorKey: OPERATOR.gemini,
    usage: {
      prompt_tokens: 2 * SCRIPTED_GEMINI_CHAT_USAGE.gemini.promptTokenCount,
      completion_tokens: 2 * (SCRIPTED_GEMINI_CHAT_USAGE.gemini.candidatesTokenCount + SCRIPTED_GEMINI_CHAT_USAGE.gemini.thoughtsTokenCount),
    },
  },
  {
    type: 'opencode',
    file: 'opencode.txt',
    tool: 'bash',
    protocol: 'chat',
    key: (r: Json) => r.headers.authorization?.replace(/^Bearer /, ''),
    model: (r: Json) => r.body.model,
    operatorKey: OPERATOR.openai,
    usage: { prompt_tokens: 2 * SCRIPTED_GEMINI_CHAT_USAGE.chat.prompt_tokens, completion_tokens: 2 * SCRIPTED_GEMINI_CHAT_USAGE.chat.completion_tokens },
  },
] as const;

for (const kind of testDatabases()) {
  describe.skipIf(!sandboxAvailable)(`third-party harnesses (${kind.dialect})`, () => {
    let provider: ScriptedProvider;
    let server: TestServer;
    let client: RestClient;

    beforeAll(async () => {
      const harnessesDir = await installedHarnesses('codex', 'claude', 'gemini', 'opencode');
      provider = await ScriptedProvider.start({
        responses: { name: 'exec_command', arguments: { cmd: toolCommand('codex.txt') } },
        messages: { name: 'Bash', arguments: { command: toolCommand('claude.txt'), description: 'Write the file' } },
        gemini: { name: 'run_shell_command', arguments: { command: toolCommand('gemini.txt') } },
        chat: { name: 'bash', arguments: { command: toolCommand('opencode.txt'), description: 'Write the file' } },
        finalText: 'All done.',
        alternative: {
          marker: 'Take your time.',
          responses: { name: 'exec_command', arguments: { cmd: 'sleep 600' } },
          messages: { name: 'Bash', arguments: { command: 'sleep 600' } },
        },
      });
      server = await startTestServer({
        database: kind,
        env: {
          HARNESSES_DIR: harnessesDir,
          OPENAI_BASE_URL: `${provider.url}/v1`,
          OPENAI_API_KEY: OPERATOR.openai,
          ANTHROPIC_BASE_URL: provider.url,
          ANTHROPIC_API_KEY: OPERATOR.anthropic,
          GEMINI_BASE_URL: provider.url,
          GEMINI_API_KEY: OPERATOR.gemini,
        },
      });
      client = restClient(server, server.adminKey);
    }, INSTALL_TIMEOUT_MS);
    afterAll(async () => {
      await server?.close();
      await provider?.close();
    });

    it('lists the harnesses it offers, installed', async () => {
      const listed = await client.get('/agent/harnesses');
      expect(listed.status).toBe(200);
      expect(listed.body.harnesses).toEqual(
        expect.arrayContaining([
          { type: 'codex', name: 'Codex', npm_package: '@openai/codex', version: '0.171.0', command: 'codex', installed: true },
          { type: 'claude', name: 'Claude Code', npm_package: '@anthropic-ai/claude-code', version: '2.1.197', command: 'claude', installed: true },
          { type: 'gemini', name: 'Gemini CLI', npm_package: '@google/gemini-cli', version: '0.61.0', command: 'gemini', installed: true },
          { type: 'opencode', name: 'opencode', npm_package: 'opencode-ai', version: '1.18.33', command: 'opencode', installed: true },
        ]),
      );
    });

    for (const c of CASES) {
      it(`runs ${c.type} in the sandbox through the gateway: the file, the conversation, the usage, no provider key inside; a follow-up resumes its session`, async () => {
        const before = provider.requests.length;
        const created = await client.post('/agent/runs', {
          prompt: `Write ${c.file}, please.`,
          config: { harness: { type: c.type, model_id: `${c.type}-test-model`, reasoning_level: 'high' }, base_prompt: 'Answer briefly.' },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const runId = created.body.run_id as string;
        const run = await untilFinished(client, runId);
        const conversation = (await client.get(`/agent/runs/${runId}/conversation`)).body;
        const blocks = blocksOf(conversation);
        expect(run.state, JSON.stringify({ status: run.status_message, blocks })).toBe('SUCCEEDED');

        // The file the CLI's tool call wrote, in the run's workspace.
        expect(await withRunWorkspace(server.ctx, runId, (dir) => fs.readFileSync(path.join(dir, c.file), 'utf8'))).toBe('made by the harness\n');

        // The conversation: the prompt, the tool call and its result with Oz's categories, the final text.
        const action = blocks.find((b) => b.type === 'action');
        expect(action).toMatchObject({ role: 'assistant', category: 'command', name: c.tool });
        expect(JSON.stringify(action.input)).toContain(c.file);
        const result = blocks.find((b) => b.type === 'action_result');
        expect(result).toMatchObject({ role: 'tool', action_id: action.id, category: 'command', name: c.tool, state: 'completed' });
        expect(result.output.text).toContain('egress=403');
        expect(result.output.text).toContain('checked');
        const notices = blocks.filter((b) => b.type === 'event' && b.name === 'harness_notice').map((b) => b.data.text);
        // … and that is the only refusal: the CLI itself sent nothing but model calls (telemetry, updates, plugins off).
        expect(notices.filter((n) => n.startsWith('egress to '))).toEqual([expect.stringMatching(/^egress to blocked\.example\.com:80 denied/)]);
        expect(result.output.text).not.toContain('LEAK');
        expect(blocks.filter((b) => b.type === 'text').map((b) => b.text)).toEqual([`Write ${c.file}, please.`, 'All done.']);
        const session = blocks.find((b) => b.type === 'event' && b.name === 'harness_session');
        expect(session.data).toMatchObject({ harness: c.type, session_id: expect.any(String) });

        // Two model calls, each metered once by the gateway (the CLI's own count is an event, not added).
        const total = c.usage.prompt_tokens + c.usage.completion_tokens;
        expect(run.usage).toEqual({ ...c.usage, total_tokens: total });
        expect(run.request_usage).toEqual({ total_tokens: total });

        // The provider saw only the operator's key, from the gateway; the model, effort and base prompt were passed on.
        const calls = provider.modelRequests().slice(before);
        expect(calls).toHaveLength(2);
        for (const call of calls) expect(c.key(call)).toBe(c.operatorKey);
        expect(c.model(calls[0]!)).toBe(`${c.type}-test-model`);
        expect(JSON.stringify(calls[0]!.body)).toContain('Answer briefly.');
        if (c.type === 'codex') expect(calls[0]!.body.reasoning).toMatchObject({ effort: 'high' });
        if (c.type === 'gemini') expect(calls[0]!.body.generationConfig.thinkingConfig).toMatchObject({ thinkingLevel: 'HIGH' });
        if (c.type === 'opencode') expect(calls[0]!.body.reasoning_effort).toBe('high');
        expect(JSON.stringify(conversation)).not.toContain(c.operatorKey);

        // A follow-up resumes the CLI's session: the provider gets the first turn's history with the new message.
        const followup = await client.post(`/agent/runs/${runId}/followups`, { message: 'Now say it again.' });
        expect(followup.status).toBe(200);
        const resumed = await untilFinished(client, runId, run.updated_at);
        expect(resumed.state).toBe('SUCCEEDED');
        const later = provider.modelRequests().slice(before + 2);
        expect(later.length).toBeGreaterThan(0);
        const body = JSON.stringify(later[0]!.body);
        expect(body).toContain('Now say it again.');
        expect(body).toContain(`Write ${c.file}, please.`);
        const sessions = blocksOf((await client.get(`/agent/runs/${runId}/conversation`)).body).filter(
          (b) => b.type === 'event' && b.name === 'harness_session',
        );
        expect(sessions.map((s) => s.data.session_id)).toEqual([session.data.session_id, session.data.session_id]);

        // Its home gone with the workspace's files: the next follow-up starts a new session with the conversation so far.
        await withRunWorkspace(server.ctx, runId, (dir) => fs.rmSync(path.join(dir, '.agent-runs'), { recursive: true, force: true }));
        const seen = provider.modelRequests().length;
        expect((await client.post(`/agent/runs/${runId}/followups`, { message: 'Once more, from scratch.' })).status).toBe(200);
        const fresh = await untilFinished(client, runId, resumed.updated_at);
        expect(fresh.state, JSON.stringify(fresh.status_message)).toBe('SUCCEEDED');
        const restarted = JSON.stringify(provider.modelRequests()[seen]!.body);
        expect(restarted).toContain('Once more, from scratch.');
        expect(restarted).toContain(`user: Write ${c.file}, please.`);
        const last = blocksOf((await client.get(`/agent/runs/${runId}/conversation`)).body)
          .filter((b) => b.type === 'event' && b.name === 'harness_session')
          .at(-1);
        expect(last.data.session_id).not.toBe(session.data.session_id);
      }, 180_000);
    }

    it('ends a run whose CLI spent its budget FAILED budget_exceeded, with what it used', async () => {
      const created = await client.post('/agent/runs', { prompt: 'Write codex.txt, please.', config: { harness: { type: 'codex' }, max_tokens: 10 } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const run = await untilFinished(client, created.body.run_id);
      expect(run.state).toBe('FAILED');
      expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', retryable: false });
      expect(run.usage.total_tokens).toBe(SCRIPTED_USAGE.responses.total_tokens);
    }, 120_000);

    it('stops the CLI and everything it started when the run is cancelled', async () => {
      const created = await client.post('/agent/runs', { prompt: 'Take your time.', config: { harness: { type: 'codex', model_id: 'gpt-test' } } });
      const runId = created.body.run_id as string;
      // The CLI has started its endless command once the action is in the conversation.
      const deadline = Date.now() + 60_000;
      while (!blocksOf((await client.get(`/agent/runs/${runId}/conversation`)).body).some((b) => b.type === 'action') && Date.now() < deadline)
        await delay(100);
      expect(processesWithEnv('AGENT_RUN_ID', runId).length).toBeGreaterThan(0);
      expect((await client.post(`/agent/runs/${runId}/cancel`, {})).status).toBe(200);
      expect((await untilFinished(client, runId)).state).toBe('CANCELLED');
      while (processesWithEnv('AGENT_RUN_ID', runId).length > 0 && Date.now() < deadline) await delay(100);
      expect(processesWithEnv('AGENT_RUN_ID', runId)).toEqual([]);
    }, 120_000);

    it('ends a gemini run whose budget its first call spent at its next call, which Gemini CLI takes as final', async () => {
      const before = provider.modelRequests().length;
      const created = await client.post('/agent/runs', {
        prompt: 'Write gemini-budget.txt, please.',
        config: { harness: { type: 'gemini', model_id: 'gemini-test-model' }, max_tokens: 10 },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const run = await untilFinished(client, created.body.run_id);
      const blocks = blocksOf((await client.get(`/agent/runs/${created.body.run_id}/conversation`)).body);
      expect(run.state, JSON.stringify({ status: run.status_message, blocks })).toBe('FAILED');
      expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded' });
      // The gateway refused the second call without forwarding it; the CLI gave up on it at once (its
      // terminal-quota message), rather than retrying the refusal with back-off for minutes.
      expect(provider.modelRequests().length - before).toBe(1);
      const error = blocks.find((b) => b.type === 'event' && b.name === 'harness_error');
      expect(error?.data.text).toContain('exhausted your daily quota');
    }, 120_000);

    it('refuses a harness it does not offer with a 400 naming config.harness.type', async () => {
      const res = await client.post('/agent/runs', { prompt: 'p', config: { harness: { type: 'aider' } } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: '$.config.harness.type', message: 'harness aider is not available' }]);
      expect(res.body.detail).toContain('aider');
    });
  });
}

describe('a server without the harness installed', () => {
  let server: TestServer;
  let empty: string;
  beforeAll(async () => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-no-harnesses-'));
    server = await startTestServer({ engine: false, env: { HARNESSES_DIR: empty } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('lists it as not installed and refuses a run or a schedule asking for it with a 400 naming it', async () => {
    const client = restClient(server, server.adminKey);
    const listed = (await client.get('/agent/harnesses')).body.harnesses;
    expect(listed.find((h: Json) => h.type === 'codex')).toMatchObject({ installed: false });
    const run = await client.post('/agent/runs', { prompt: 'p', config: { harness: { type: 'codex' } } });
    expect(run.status).toBe(400);
    expect(run.body.errors).toEqual([{ path: '$.config.harness.type', message: 'harness codex is not available' }]);
    expect(run.body.detail).toMatch(/Codex is not installed on this server .*pnpm harnesses:install codex/);
    const schedule = await client.post('/agent/schedules', {
      name: 's',
      cron_schedule: '0 * * * *',
      prompt: 'p',
      agent_config: { harness: { type: 'claude' } },
    });
    expect(schedule.status).toBe(400);
    expect(schedule.body.errors).toEqual([{ path: '$.agent_config.harness.type', message: 'harness claude is not available' }]);
  });
});
