/**
 * The model gateway in runs, through the public API with the real sandbox: an AGENT_COMMAND calls every
 * protocol with curl through its egress proxy and the execution's key (streamed, counted on the run,
 * no provider key anywhere inside), a later run finds that key dead, a team's own key from
 * harness_auth_secrets replaces the operator's, and the built-in agent's calls are metered by the gateway.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { sandboxAvailable } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';
import { FAKE_USAGE, FakeProviders } from './fake-providers';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
/** The command runner executes the lines between these markers of a prompt, as a shell script. */
const AGENT_COMMAND = "sed -n '/^#!begin$/,/^#!end$/p' | /bin/sh";
const script = (lines: string[]) => `#!begin\n${lines.join('\n')}\n#!end`;
const OPERATOR = { openai: 'sk-operator-openai-0f3a', anthropic: 'sk-ant-operator-77c1', gemini: 'AIza-operator-5e2b', model: 'sk-model-operator-9d4e' };

async function runToEnd(client: RestClient, body: Record<string, unknown>) {
  const created = await client.post('/agent/runs', body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const runId = created.body.run_id as string;
  const deadline = Date.now() + 30_000;
  let run: any;
  do {
    await delay(50);
    run = (await client.get(`/agent/runs/${runId}`)).body;
  } while (!TERMINAL.includes(run.state) && Date.now() < deadline);
  const output = JSON.stringify((await client.get(`/agent/runs/${runId}/conversation`)).body);
  return { run, output };
}

const split = (key: string) => `"${key.slice(0, 6)}""${key.slice(6)}"`;
const json = (value: unknown) => `'${JSON.stringify(value)}'`;
const chatCall = (key: string) =>
  `curl -sS -o /dev/null -w 'status=%{http_code}\\n' "$OPENAI_BASE_URL/chat/completions" -H "Authorization: Bearer ${key}" -H 'content-type: application/json' -d ${json({ model: 'gpt-test', messages: [] })}`;

for (const kind of testDatabases()) {
  describe.skipIf(!sandboxAvailable)(`the model gateway in runs (${kind.dialect})`, () => {
    let fake: FakeProviders;
    let server: TestServer;
    let client: RestClient;

    beforeAll(async () => {
      fake = await FakeProviders.start();
      server = await startTestServer({
        database: kind,
        env: { RUNNER: 'command', AGENT_COMMAND, ...fake.providerSettings(OPERATOR) },
      });
      client = restClient(server, server.adminKey);
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await fake?.close();
    });

    it('lets a sandboxed process call every protocol with its key, streamed and counted, and shows no provider key inside', async () => {
      const before = fake.requests.length;
      const { run, output } = await runToEnd(client, {
        prompt: script([
          // Plain http through HTTP_PROXY (absolute-form), streamed (-N), with the response headers (-i).
          `curl -sS -N -i "$OPENAI_BASE_URL/chat/completions" -H "Authorization: Bearer $OPENAI_API_KEY" -H 'content-type: application/json' -d ${json({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] })}`,
          `curl -sS -N -i "$ANTHROPIC_BASE_URL/v1/messages" -H "x-api-key: $ANTHROPIC_API_KEY" -H 'anthropic-version: 2023-06-01' -H 'content-type: application/json' -d ${json({ model: 'claude-test', max_tokens: 16, stream: true, messages: [] })}`,
          // Through a CONNECT tunnel (-p), as Node's proxy agents do.
          `curl -sS -N -i -p "$GOOGLE_GEMINI_BASE_URL/v1beta/models/gemini-test:streamGenerateContent?alt=sse" -H "x-goog-api-key: $GEMINI_API_KEY" -H 'content-type: application/json' -d ${json({ contents: [] })}`,
          'echo "KEY=$OPENAI_API_KEY"',
          'env | grep -c . > /dev/null',
          // Nothing of the operator's keys in the environment, the files a process can read, or another process's view.
          // The keys split in two, so the prompt (recorded in the conversation) holds none of them whole.
          `for needle in ${Object.values(OPERATOR).map(split).join(' ')}; do env | grep -q "$needle" && echo "LE""AK in env"; grep -rqs "$needle" /workspace /tmp /etc /proc/1/environ /proc/self/environ /proc/1/cmdline && echo "LE""AK in files"; done`,
          'echo done',
        ]),
      });
      expect(run.state, output).toBe('SUCCEEDED');
      expect(output).toContain('\\"content\\":\\"Hello\\"');
      expect(output).toContain('event: message_delta');
      expect(output).toContain('usageMetadata');
      expect(output).not.toContain('LEAK');
      for (const key of Object.values(OPERATOR)) expect(output).not.toContain(key);
      const sum = (field: 'prompt_tokens' | 'completion_tokens' | 'total_tokens') =>
        FAKE_USAGE.chat[field] + FAKE_USAGE.messages[field] + FAKE_USAGE.gemini[field];
      expect(run.usage).toEqual({ prompt_tokens: sum('prompt_tokens'), completion_tokens: sum('completion_tokens'), total_tokens: sum('total_tokens') });
      expect(run.request_usage).toEqual({ total_tokens: sum('total_tokens') });
      const seen = fake.requests.slice(before);
      expect(seen.map((r) => [r.path, r.headers.authorization ?? r.headers['x-api-key'] ?? r.headers['x-goog-api-key']])).toEqual([
        ['/v1/chat/completions', `Bearer ${OPERATOR.openai}`],
        ['/v1/messages', OPERATOR.anthropic],
        ['/v1beta/models/gemini-test:streamGenerateContent?alt=sse', OPERATOR.gemini],
      ]);

      // The key of an execution that ended is refused; the next execution's own key works.
      const oldKey = /KEY=(mgw_[A-Za-z0-9_-]+)/.exec(output)?.[1];
      expect(oldKey).toBeDefined();
      const later = await runToEnd(client, { prompt: script([chatCall(oldKey!), chatCall('$OPENAI_API_KEY')]) });
      expect(later.run.state, later.output).toBe('SUCCEEDED');
      expect([...later.output.matchAll(/status=(\d{3})/g)].map((m) => m[1])).toEqual(['401', '200']);
    }, 60_000);

    it("forwards with the team's own key named by harness_auth_secrets, and fails a run naming a missing secret", async () => {
      const teamKey = 'sk-ant-team-key-4b8e';
      expect((await client.put('/secrets/TEAM_ANTHROPIC', { value: teamKey })).status).toBe(200);
      const before = fake.requests.length;
      const { run, output } = await runToEnd(client, {
        prompt: script([
          `curl -sS "$ANTHROPIC_BASE_URL/v1/messages" -H "x-api-key: $ANTHROPIC_API_KEY" -H 'content-type: application/json' -d ${json({ model: 'claude-test', max_tokens: 16, messages: [] })}`,
          `env | grep -q ${split(teamKey)} && echo "LE""AK"`,
          'echo done',
        ]),
        config: { harness_auth_secrets: { claude_auth_secret_name: 'TEAM_ANTHROPIC' } },
      });
      expect(run.state, output).toBe('SUCCEEDED');
      expect(run.agent_config.harness_auth_secrets).toEqual({ claude_auth_secret_name: 'TEAM_ANTHROPIC' });
      expect(output).toContain('Hello there');
      expect(output).not.toContain(teamKey);
      expect(output).toContain('done');
      expect(output).not.toContain('LEAK');
      expect(fake.requests.slice(before).map((r) => r.headers['x-api-key'])).toEqual([teamKey]);
      expect(run.usage).toEqual(FAKE_USAGE.messages);

      const missing = await runToEnd(client, { prompt: 'x', config: { harness_auth_secrets: { codex_auth_secret_name: 'NO_SUCH_SECRET' } } });
      expect(missing.run.state).toBe('FAILED');
      expect(missing.run.status_message).toMatchObject({ error_code: 'harness_auth_secret_not_found', retryable: false });
      expect(missing.run.status_message.message).toContain('NO_SUCH_SECRET');
    }, 60_000);
  });

  describe(`the built-in agent through the model gateway (${kind.dialect})`, () => {
    let fake: FakeProviders;
    let server: TestServer;

    beforeAll(async () => {
      fake = await FakeProviders.start();
      server = await startTestServer({
        database: kind,
        env: {
          RUNNER: 'model',
          MODEL_BASE_URL: `${fake.url}/v1`,
          MODEL_API_KEY: OPERATOR.model,
          DEFAULT_MODEL_ID: 'gpt-test',
          OPENAI_API_KEY: OPERATOR.openai,
        },
      });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await fake?.close();
    });

    it("sends its model calls through the gateway to MODEL_BASE_URL's provider and counts them once", async () => {
      const { run, output } = await runToEnd(restClient(server, server.adminKey), { prompt: 'say hello' });
      expect(run.state, output).toBe('SUCCEEDED');
      expect(output).toContain('Hello there');
      expect(fake.requests).toHaveLength(1);
      const [call] = fake.requests;
      // MODEL_API_KEY, not OPENAI_API_KEY (that one is for the run's processes), and the gateway's upstream request.
      expect(call!.headers.authorization).toBe(`Bearer ${OPERATOR.model}`);
      expect(call!.headers['accept-encoding']).toBe('identity');
      expect(run.usage).toEqual(FAKE_USAGE.chat);
    }, 60_000);
  });
}
