/**
 * The CLI as users run it: a child process (`node packages/cli/bin/agent-runs.mjs …`, the package's bin), against
 * (a) a local stub of the API that records requests and answers contract-shaped JSON, for the mapping of
 * arguments to requests and of answers and errors to output and exit codes, and (b) the real server
 * (echo runner), end to end.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunProgress } from '../src/output';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(repoRoot, 'packages/cli/bin/agent-runs.mjs');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with AGENT_RUNS_* taken only from `env` (never from the developer's shell), through `entry`
 * (default: the bin, as npm links it) with plain `node`.
 */
function runCli(args: string[], env: Record<string, string> = {}, entry = bin, cwd = repoRoot): Promise<CliResult> {
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AGENT_RUNS_')),
  ) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd,
      env: { ...baseEnv, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the agent-runs bin', () => {
  it('runs with plain node, also through a symlink from another directory, as npm links it into node_modules/.bin', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'packages/cli/package.json'), 'utf8')) as {
      version: string;
      bin: Record<string, string>;
    };
    expect(path.resolve(repoRoot, 'packages/cli', pkg.bin['agent-runs']!)).toBe(bin);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-bin-'));
    try {
      await symlink(bin, path.join(dir, 'agent-runs'));

      const direct = await runCli(['--version']);
      const linked = await runCli(['--version'], {}, path.join(dir, 'agent-runs'), dir);
      const help = await runCli(['--help'], {}, path.join(dir, 'agent-runs'), dir);

      expect(direct).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
      expect(linked).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
      expect(help.stdout).toMatch(/^ {2}automations /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('run --wait progress on a terminal', () => {
  afterEach(() => vi.useRealTimers());

  it('redraws one line in place every second and on each new state, and leaves the last one', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    let now = 10_000;
    const progress = new RunProgress({ isTTY: true, write: (text: string) => written.push(text) }, 10_000, () => now);

    progress.start('run_1', 'QUEUED');
    now = 11_200;
    vi.advanceTimersByTime(1000);
    progress.update('INPROGRESS');
    progress.update('INPROGRESS');
    now = 13_900;
    progress.stop();

    expect(written).toEqual([
      'run_id: run_1\n',
      '\r\x1b[2Kstate: QUEUED  0s',
      '\r\x1b[2Kstate: QUEUED  1s',
      '\r\x1b[2Kstate: INPROGRESS  1s',
      '\r\x1b[2Kstate: INPROGRESS  3s\n',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
// (a) Against a stub API
// ---------------------------------------------------------------------------------------------------

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

interface StubAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body; `text` wins when set (an event stream). */
  json?: unknown;
  text?: string;
}

type StubHandler = (request: RecordedRequest) => StubAnswer;

class StubApi {
  readonly requests: RecordedRequest[] = [];
  handler: StubHandler = () => problem(404, 'resource_not_found', 'No route in this stub.');
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stub');
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1/, ''),
      query: url.searchParams,
      headers: req.headers,
      body: raw === '' ? undefined : JSON.parse(raw),
    };
    this.requests.push(request);
    const answer = this.handler(request);
    const status = answer.status ?? 200;
    if (answer.text !== undefined) {
      res.writeHead(status, { 'content-type': 'text/event-stream', ...answer.headers });
      res.end(answer.text);
    } else if (answer.json === undefined) {
      res.writeHead(status, answer.headers ?? {});
      res.end();
    } else {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_stub_1', ...answer.headers });
      res.end(JSON.stringify(answer.json));
    }
  }
}

function problem(status: number, code: string, detail: string): StubAnswer {
  const title = code.replace(/_/g, ' ');
  return {
    status,
    headers: {
      'content-type': 'application/problem+json',
      'x-request-id': 'req_trace_42',
      'x-should-retry': 'false',
    },
    json: {
      type: `https://agent-runs.dev/errors/${code}`,
      title,
      status,
      detail,
      instance: '/api/v1/…',
      error: `${title}: ${detail}`,
      retryable: false,
      trace_id: 'req_trace_42',
    },
  };
}

const RUN_ID = '3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c';
const FACTORY = 'fac_01hzyxwvutsrqponmlkjihgfed';
const WEBHOOK = 'wh_01hzyxwvutsrqponmlkjihgfed';

function runItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: RUN_ID,
    task_id: RUN_ID,
    title: 'Triage the new issue',
    state: 'SUCCEEDED',
    prompt: 'Triage the new issue',
    created_at: '2026-05-01T12:00:00.000Z',
    updated_at: '2026-05-01T12:00:05.000Z',
    source: 'API',
    agent_config: { name: 'triage', model_id: 'gpt-x', max_turns: 20, model_call_timeout_seconds: 120, run_timeout_seconds: 1800 },
    ...overrides,
  };
}

function webhook(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uid: WEBHOOK,
    factory_uid: FACTORY,
    name: 'github-issues',
    auth_mode: 'signature',
    signature_scheme: 'github',
    secret_name: 'WEBHOOK_GITHUB_ISSUES_SECRET',
    secret_configured: true,
    delivery_id_header: null,
    enabled: true,
    ingress_url: `http://localhost:8080/webhooks/w/${WEBHOOK}`,
    created_at: '2026-05-01T12:00:00.000Z',
    updated_at: '2026-05-01T12:00:00.000Z',
    ...overrides,
  };
}

function sse(events: Array<{ id: number; event: string; data: unknown }>): string {
  return events.map((e) => `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

const RUN_EVENTS = sse([
  { id: 1, event: 'state', data: { run_id: RUN_ID, state: 'INPROGRESS', updated_at: '2026-05-01T12:00:01Z' } },
  {
    id: 2,
    event: 'content',
    data: {
      run_id: RUN_ID,
      step_id: 'step_1',
      message_id: 'msg_1',
      role: 'assistant',
      timestamp: '2026-05-01T12:00:02Z',
      block: { type: 'text', text: 'echo: hi' },
    },
  },
  { id: 3, event: 'state', data: { run_id: RUN_ID, state: 'SUCCEEDED', updated_at: '2026-05-01T12:00:03Z' } },
]);

const CONVERSATION = {
  conversation_id: 'conv_1d2e3f4a5b6c',
  steps: [
    {
      id: 'step_1',
      started_at: '2026-05-01T12:00:01Z',
      messages: [
        { role: 'user', timestamp: '2026-05-01T12:00:01Z', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          timestamp: '2026-05-01T12:00:02Z',
          content: [
            { type: 'text', text: 'echo: hi' },
            { type: 'action', id: 'act_1', category: 'shell', name: 'run', input: { cmd: 'ls' } },
          ],
        },
        { role: 'assistant', timestamp: '2026-05-01T12:00:03Z', content: [{ type: 'text', text: 'and more' }] },
      ],
      steps: [],
    },
  ],
};

describe('agent-runs against a stub API', () => {
  const stub = new StubApi();
  let env: Record<string, string>;

  beforeAll(async () => {
    await stub.start();
    env = { AGENT_RUNS_API_KEY: 'ar_live_test', AGENT_RUNS_BASE_URL: stub.url };
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.requests.length = 0;
  });

  describe('run', () => {
    it('sends the prompt, --title, --name as config.name and --model as config.model_id, with the env API key', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(
        ['run', '--prompt', 'Triage the new issue', '--name', 'triage', '--model', 'gpt-x', '--title', 'T', '--json'],
        env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests).toHaveLength(1);
      const [request] = stub.requests;
      expect(request!.method).toBe('POST');
      expect(request!.path).toBe('/agent/runs');
      expect(request!.headers.authorization).toBe('Bearer ar_live_test');
      expect(request!.headers['idempotency-key']).toBeTruthy();
      expect(request!.body).toEqual({
        prompt: 'Triage the new issue',
        title: 'T',
        config: { name: 'triage', model_id: 'gpt-x' },
      });
      expect(JSON.parse(result.stdout)).toEqual({ run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' });
    });

    it('sends no config when neither --name nor --model is given, and prints run_id and state for people', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['run', '--prompt', 'hi'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.body).toEqual({ prompt: 'hi' });
      expect(result.stdout).toBe(`run_id:  ${RUN_ID}\nstate:   QUEUED\n`);
    });

    it('--api-key and --base-url override the environment', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['--api-key', 'ar_live_flag', '--base-url', stub.url, 'run', '--prompt', 'hi'], {
        AGENT_RUNS_API_KEY: 'ar_live_env',
        AGENT_RUNS_BASE_URL: 'http://127.0.0.1:9/api/v1',
      });

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.headers.authorization).toBe('Bearer ar_live_flag');
    });

    it('--wait creates the run, follows its events and prints the terminal run', async () => {
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        if (request.path.endsWith('/events')) return { text: RUN_EVENTS };
        if (request.path.endsWith('/conversation')) return { json: CONVERSATION };
        return { json: runItem() };
      };

      const json = await runCli(['run', '--prompt', 'hi', '--wait', '--json'], env);
      const human = await runCli(['run', '--prompt', 'hi', '--wait'], env);

      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ run_id: RUN_ID, state: 'SUCCEEDED' });
      expect(stub.requests.slice(0, 3).map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /agent/runs',
        `GET /agent/runs/${RUN_ID}/events`,
        `GET /agent/runs/${RUN_ID}`,
      ]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
      expect(human.stdout).toMatch(/^name:\s+triage$/m);
      // The answer is the assistant's text of the conversation, after the run.
      expect(human.stdout).toMatch(/\n\nanswer:\necho: hi\n\nand more\n$/);
      expect(stub.requests.at(-1)!.path).toBe(`/agent/runs/${RUN_ID}/conversation`);
      // Not a terminal: the run id first, then one plain line per state (no carriage returns).
      expect(human.stderr).toMatch(new RegExp(`^run_id: ${RUN_ID}\nstate: QUEUED  \\d+s\nstate: INPROGRESS  \\d+s\nstate: SUCCEEDED  \\d+s\n$`));
      // With --json on pipes, stdout is the run's JSON alone and stderr stays empty.
      expect(json.stderr).toBe('');
    });

    it('--wait exits 3 when the run ends FAILED, printing its status', async () => {
      const failed = runItem({ state: 'FAILED', status_message: { message: 'model unreachable', error_code: 'model_error' } });
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        // No event stream: the CLI falls back to polling the run.
        if (request.path.endsWith('/events')) return problem(404, 'resource_not_found', 'No events.');
        if (request.path.endsWith('/conversation')) return { json: { conversation_id: 'conv_1', steps: [] } };
        return { json: failed };
      };

      const human = await runCli(['run', '--prompt', 'hi', '--wait'], env);
      const json = await runCli(['run', '--prompt', 'hi', '--wait', '--json'], env);

      expect(human.code).toBe(3);
      expect(human.stdout).toMatch(/^status:\s+model unreachable \(model_error\)$/m);
      expect(human.stdout).toMatch(/answer:\n\(no assistant text\)\n$/);
      expect(human.stderr).toMatch(/^state: FAILED {2}\d+s$/m);
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({ state: 'FAILED' });
    });

    it('runs create is run under another name: same flags, same request', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['runs', 'create', '--prompt', 'hi', '--model', 'gpt-x', '--title', 'T'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/agent/runs',
        body: { prompt: 'hi', title: 'T', config: { model_id: 'gpt-x' } },
      });
      expect(result.stdout).toBe(`run_id:  ${RUN_ID}\nstate:   QUEUED\n`);
    });

    it('without --prompt or --skill is a usage error (exit 1), and sends nothing', async () => {
      const result = await runCli(['run', '--name', 'x'], env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: give --prompt, --skill or both');
      expect(stub.requests).toHaveLength(0);
    });

    it('--skill alone starts a skill-only run; --environment selects the environment', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['run', '--skill', 'acme/skills:skills/triage/SKILL.md', '--environment', 'env_01hzx'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/agent/runs',
        body: { skill: 'acme/skills:skills/triage/SKILL.md', config: { environment_id: 'env_01hzx' } },
      });
      expect(stub.requests[0]!.body).not.toHaveProperty('prompt');
    });
  });

  describe('runs', () => {
    it('list repeats --state as repeated state= parameters and passes --name and --limit', async () => {
      const page = { runs: [runItem()], page_info: { has_next_page: false, next_cursor: null } };
      stub.handler = () => ({ json: page });

      const result = await runCli(
        ['runs', 'list', '--state', 'QUEUED', '--state', 'inprogress', '--name', 'triage', '--limit', '5', '--json'],
        env,
      );

      expect(result.code).toBe(0);
      const [request] = stub.requests;
      expect(request!.method).toBe('GET');
      expect(request!.path).toBe('/agent/runs');
      expect(request!.query.getAll('state')).toEqual(['QUEUED', 'INPROGRESS']);
      expect(request!.query.get('name')).toBe('triage');
      expect(request!.query.get('limit')).toBe('5');
      expect(JSON.parse(result.stdout)).toEqual(page);
    });

    it('list prints an aligned table for people, with the cursor of the next page', async () => {
      const other = '0b6a1c9e-2f44-4d1b-9c3e-5a7b8c9d0e1f';
      stub.handler = () => ({
        json: {
          runs: [
            runItem(),
            runItem({ run_id: other, task_id: other, state: 'INPROGRESS', title: 'Short', agent_config: undefined }),
          ],
          page_info: { has_next_page: true, next_cursor: 'cur_2' },
        },
      });

      const result = await runCli(['runs', 'list'], env);

      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toEqual([
        'RUN ID                                STATE       NAME    UPDATED               TITLE',
        `${RUN_ID}  SUCCEEDED   triage  2026-05-01 12:00:05Z  Triage the new issue`,
        `${other}  INPROGRESS          2026-05-01 12:00:05Z  Short`,
        'more: pass --cursor cur_2',
      ]);
    });

    it('list rejects an unknown --state before sending anything', async () => {
      const result = await runCli(['runs', 'list', '--state', 'DONE'], env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain("'DONE' is not a run state");
      expect(stub.requests).toHaveLength(0);
    });

    it('get of an unknown run exits 1 with the status, code, detail and trace id on stderr', async () => {
      stub.handler = () => problem(404, 'resource_not_found', `Run ${RUN_ID} not found.`);

      const result = await runCli(['runs', 'get', RUN_ID], env);

      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`error: 404 resource_not_found: Run ${RUN_ID} not found.`);
      expect(result.stderr).toContain('trace id: req_trace_42');
      expect(stub.requests[0]!.path).toBe(`/agent/runs/${RUN_ID}`);
    });

    it('get prints the run as label: value lines', async () => {
      stub.handler = () => ({ json: runItem({ status_message: { message: 'done' } }) });

      const result = await runCli(['runs', 'get', RUN_ID], env);

      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^run_id:\\s+${RUN_ID}$`, 'm'));
      expect(result.stdout).toMatch(/^status:\s+done$/m);
      expect(result.stdout).toMatch(/^model_id:\s+gpt-x$/m);
    });

    it('get shows a BLOCKED run\'s question and how to answer it; answer posts the follow-up', async () => {
      const blocked = runItem({ state: 'BLOCKED', status_message: { message: 'Which branch?' } });
      stub.handler = (request) => (request.method === 'POST' ? { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } } : { json: blocked });

      const shown = await runCli(['runs', 'get', RUN_ID], env);
      const answered = await runCli(['runs', 'answer', RUN_ID, 'main, please', '--json'], env);

      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/^question:\s+Which branch\?$/m);
      expect(shown.stdout).not.toMatch(/^status:/m);
      expect(shown.stdout).toContain(`the run waits for your answer: agent-runs runs answer ${RUN_ID} "<answer>"`);
      expect(answered.code).toBe(0);
      expect(stub.requests.at(-1)).toMatchObject({ method: 'POST', path: `/agent/runs/${RUN_ID}/followups`, body: { message: 'main, please' } });
      expect(JSON.parse(answered.stdout)).toMatchObject({ state: 'QUEUED' });
    });

    it('run --wait stops at BLOCKED with the question and exits 4; runs answer --wait follows the run again', async () => {
      let answered = false;
      const blocked = runItem({ state: 'BLOCKED', status_message: { message: 'Which branch?' } });
      stub.handler = (request) => {
        if (request.method === 'POST') {
          answered = request.path.endsWith('/followups');
          return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        }
        if (request.path.endsWith('/events')) {
          return { text: answered ? RUN_EVENTS : sse([{ id: 1, event: 'state', data: { run_id: RUN_ID, state: 'BLOCKED', updated_at: '2026-05-01T12:00:01Z' } }]) };
        }
        if (request.path.endsWith('/conversation')) return { json: CONVERSATION };
        return { json: answered ? runItem() : blocked };
      };

      const waited = await runCli(['run', '--prompt', 'hi', '--wait'], env);
      const resumed = await runCli(['runs', 'answer', RUN_ID, 'main', '--wait'], env);

      expect(waited.code).toBe(4);
      expect(waited.stdout).toMatch(/^question:\s+Which branch\?$/m);
      expect(waited.stdout).toMatch(/the run waits for your answer: agent-runs runs answer \S+ "<answer>"\n$/);
      expect(waited.stderr).toMatch(/^state: BLOCKED {2}\d+s$/m);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
      expect(resumed.stdout).toMatch(/\n\nanswer:\necho: hi/);
    });

    it('followup posts {message} to the run', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['runs', 'followup', RUN_ID, '--message', 'also check labels', '--json'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: `/agent/runs/${RUN_ID}/followups`,
        body: { message: 'also check labels' },
      });
      expect(JSON.parse(result.stdout)).toMatchObject({ state: 'QUEUED' });
    });

    it('cancel posts to /cancel and prints the answer; a 409 exits 1 with its detail', async () => {
      stub.handler = () => ({ json: RUN_ID });
      const ok = await runCli(['runs', 'cancel', RUN_ID, '--json'], env);
      stub.handler = () => problem(409, 'conflict', 'Run is SUCCEEDED and cannot be cancelled.');
      const conflict = await runCli(['runs', 'cancel', RUN_ID], env);

      expect(ok.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/agent/runs/${RUN_ID}/cancel` });
      expect(JSON.parse(ok.stdout)).toBe(RUN_ID);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain('error: 409 conflict: Run is SUCCEEDED and cannot be cancelled.');
      // x-should-retry: false → one attempt only.
      expect(stub.requests).toHaveLength(2);
    });

    it('watch prints one line per event until the terminal state', async () => {
      stub.handler = () => ({ text: RUN_EVENTS });

      const result = await runCli(['runs', 'watch', RUN_ID], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.path).toBe(`/agent/runs/${RUN_ID}/events`);
      expect(stub.requests[0]!.headers.accept).toBe('text/event-stream');
      expect(result.stdout.trimEnd().split('\n')).toEqual([
        '2026-05-01 12:00:01Z  state  INPROGRESS',
        '2026-05-01 12:00:02Z  assistant  text  echo: hi',
        '2026-05-01 12:00:03Z  state  SUCCEEDED',
      ]);
    });

    it('watch --json prints one JSON object per line, and --after resumes with Last-Event-ID', async () => {
      stub.handler = () => ({ text: RUN_EVENTS });

      const result = await runCli(['runs', 'watch', RUN_ID, '--after', '7', '--json'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.headers['last-event-id']).toBe('7');
      const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
      expect(events.map((e) => [e.id, e.event])).toEqual([
        ['1', 'state'],
        ['2', 'content'],
        ['3', 'state'],
      ]);
      expect(events[2].data.state).toBe('SUCCEEDED');
    });
  });

  describe('artifacts', () => {
    const ART = '9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
    const ARTIFACTS = [
      { artifact_type: 'PULL_REQUEST', created_at: '2026-05-01T12:00:03Z', data: { url: 'https://git.example.com/a/pull/7', branch: 'fix-login' } },
      {
        artifact_type: 'FILE',
        created_at: '2026-05-01T12:00:04Z',
        data: { artifact_uid: ART, filepath: 'reports/summary.md', filename: 'summary.md', mime_type: 'text/markdown', size_bytes: 12 },
      },
    ];

    it('runs get lists the run\'s artifacts with their uids and links', async () => {
      stub.handler = () => ({ json: runItem({ artifacts: ARTIFACTS }) });

      const result = await runCli(['runs', 'get', RUN_ID], env);

      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `\nartifacts:\n  PULL_REQUEST  https://git.example.com/a/pull/7  branch fix-login\n  FILE  ${ART}  reports/summary.md  12 bytes\n`,
      );
    });

    it('runs list --artifact-type filters by type, and refuses an unknown one before any request', async () => {
      stub.handler = () => ({ json: { runs: [], page_info: { has_next_page: false, next_cursor: null } } });
      expect((await runCli(['runs', 'list', '--artifact-type', 'screenshot'], env)).code).toBe(0);
      expect(stub.requests[0]!.query.get('artifact_type')).toBe('SCREENSHOT');

      const wrong = await runCli(['runs', 'list', '--artifact-type', 'diagram'], env);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain("'diagram' is not an artifact type");
      expect(stub.requests).toHaveLength(1);
    });

    it('get shows a file with its signed URL, and a plan with its Markdown', async () => {
      const url = `http://localhost:8080/api/v1/agent/artifacts/${ART}/content?token=team_x.1.sig`;
      stub.handler = () => ({
        json: {
          artifact_uid: ART,
          artifact_type: 'FILE',
          created_at: '2026-05-01T12:00:04Z',
          data: { download_url: url, expires_at: '2026-05-01T12:15:04Z', content_type: 'text/markdown', filepath: 'reports/summary.md', filename: 'summary.md', size_bytes: 12 },
        },
      });
      const file = await runCli(['artifacts', 'get', ART], env);
      expect(file.code).toBe(0);
      expect(stub.requests[0]!.path).toBe(`/agent/artifacts/${ART}`);
      expect(file.stdout).toMatch(/^artifact_type:\s+FILE$/m);
      expect(file.stdout).toMatch(new RegExp(`^download_url:\\s+${url.replace(/[.?]/g, '\\$&')}$`, 'm'));

      stub.handler = () => ({
        json: {
          artifact_uid: ART,
          artifact_type: 'PLAN',
          created_at: '2026-05-01T12:00:04Z',
          data: { document_uid: ART, notebook_uid: ART, title: 'Next steps', content: '# Next steps\n- ship\n', content_type: 'text/markdown' },
        },
      });
      const plan = await runCli(['artifacts', 'get', ART], env);
      expect(plan.stdout).toMatch(/^title:\s+Next steps$/m);
      expect(plan.stdout).toContain('\n\n# Next steps\n- ship\n');
    });

    it('download follows the redirect, saves under the served file name, never overwrites without --force', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-artifact-'));
      try {
        stub.handler = (request): StubAnswer =>
          request.path.endsWith('/download')
            ? { status: 302, headers: { location: `${stub.url}/agent/artifacts/${ART}/content?token=t` } }
            : { status: 200, headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="../../summary.md"' }, text: '# Summary\n' };

        const saved = await runCli(['artifacts', 'download', ART], env, bin, dir);
        expect(saved.code).toBe(0);
        expect(saved.stderr).toBe('wrote summary.md\n');
        expect(await readFile(path.join(dir, 'summary.md'), 'utf8')).toBe('# Summary\n');
        expect(stub.requests.map((r) => r.path)).toEqual([`/agent/artifacts/${ART}/download`, `/agent/artifacts/${ART}/content`]);

        const again = await runCli(['artifacts', 'download', ART], env, bin, dir);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('summary.md exists: pass --force');
        expect((await runCli(['artifacts', 'download', ART, '--force'], env, bin, dir)).code).toBe(0);

        const piped = await runCli(['artifacts', 'download', ART, '--output', '-'], env, bin, dir);
        expect(piped.stdout).toBe('# Summary\n');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('agents, models, environments, transcript', () => {
    it('agents passes --repo, --sort-by and --include-malformed and prints one row per variant', async () => {
      stub.handler = () => ({
        json: {
          agents: [
            {
              name: 'triage',
              variants: [
                {
                  id: 'acme/skills:skills/triage/SKILL.md', description: 'Triage an issue', base_prompt: 'Label it.',
                  source: { owner: 'acme', name: 'skills', skill_path: 'skills/triage/SKILL.md' }, environments: [],
                  last_run_timestamp: null,
                },
                {
                  id: 'acme/tools:triage/SKILL.md', description: '', base_prompt: '', error: 'the front matter is not a YAML mapping',
                  source: { owner: 'acme', name: 'tools', skill_path: 'triage/SKILL.md' }, environments: [], last_run_timestamp: null,
                },
              ],
            },
          ],
        },
      });

      const result = await runCli(['agents', '--repo', 'acme/skills', '--sort-by', 'last_run', '--include-malformed'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: '/agent' });
      expect(Object.fromEntries(stub.requests[0]!.query)).toEqual({ repo: 'acme/skills', sort_by: 'last_run', include_malformed_skills: 'true' });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME +ID +LAST RUN +DESCRIPTION$/);
      expect(lines[1]).toMatch(/^triage +acme\/skills:skills\/triage\/SKILL\.md +Triage an issue$/);
      expect(lines[2]).toContain('the front matter is not a YAML mapping');
      expect((await runCli(['agents', '--sort-by', 'recent'], env)).stderr).toContain("'recent' is not name or last_run");
    });

    it('models marks the default', async () => {
      stub.handler = () => ({
        json: {
          default_model_id: 'gpt-4.1-mini',
          models: [
            { id: 'gpt-4.1-mini', display_name: 'gpt-4.1-mini', provider: 'OPENAI', vision_supported: false, description: 'The default' },
            { id: 'claude-sonnet-4', display_name: 'claude-sonnet-4', provider: 'ANTHROPIC', vision_supported: false },
          ],
        },
      });

      const result = await runCli(['models'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: '/agent/models' });
      expect(result.stdout.trimEnd().split('\n').slice(1)).toEqual([
        expect.stringMatching(/^\* +gpt-4\.1-mini +OPENAI +The default$/),
        expect.stringMatching(/^ +claude-sonnet-4 +ANTHROPIC$/),
      ]);
    });

    it('environments list (with --sort-by) and get print the Oz CloudEnvironment fields', async () => {
      const env1 = {
        uid: 'env_01hzx3k4m5n6p7q8r9s0t1v2w3', config: { name: 'node-20', description: 'Node', setup_commands: ['npm ci', 'npm test'] },
        last_updated: '2026-05-01T12:00:00.000Z', last_task_run_timestamp: '2026-05-01T12:01:00.000Z',
        last_task_created: { id: RUN_ID, title: 't', state: 'FAILED', created_at: '2026-05-01T12:01:00.000Z', updated_at: '2026-05-01T12:02:00.000Z' },
        setup_failed: true, scope: { type: 'Team', uid: 'team_1' }, env_var_names: ['NPM_TOKEN'], plain_env_vars: { NODE_ENV: 'test' }, created_at: '2026-05-01T12:00:00.000Z',
      };
      stub.handler = (request) => ({ json: request.path.endsWith('/environments') ? { environments: [env1], page_info: { has_next_page: false, next_cursor: null } } : env1 });

      const list = await runCli(['environments', 'list', '--sort-by', 'name', '--limit', '5'], env);
      expect(list.code).toBe(0);
      expect(Object.fromEntries(stub.requests[0]!.query)).toEqual({ sort_by: 'name', limit: '5' });
      expect(list.stdout).toMatch(/^UID +NAME +UPDATED +LAST RUN +SETUP$/m);
      expect(list.stdout).toMatch(/env_01hzx3k4m5n6p7q8r9s0t1v2w3 +node-20 +.+ +FAILED +failed/);

      const get = await runCli(['environments', 'get', env1.uid], env);
      expect(get.code).toBe(0);
      expect(stub.requests[1]).toMatchObject({ method: 'GET', path: `/agent/environments/${env1.uid}` });
      expect(get.stdout).toContain('setup_commands:');
      expect(get.stdout).toContain('NPM_TOKEN');
      expect(get.stdout).toMatch(/^plain_env_vars: +NODE_ENV=test$/m);
      expect(get.stdout).toContain(`${RUN_ID} (FAILED)`);
    });

    it('runs transcript follows the redirect and prints the JSON Lines as served', async () => {
      const lines = '{"step_id":"step_1","message_id":"msg_1","role":"user","timestamp":"2026-05-01T12:00:00Z","content":[{"type":"text","text":"hi"}]}\n';
      stub.handler = (request): StubAnswer =>
        request.path.endsWith('/transcript')
          ? { status: 302, headers: { location: `${stub.url}/agent/runs/${RUN_ID}/transcript/download?token=t` } }
          : { text: lines, headers: { 'content-type': 'application/x-ndjson' } };

      const result = await runCli(['runs', 'transcript', RUN_ID], env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => r.path)).toEqual([`/agent/runs/${RUN_ID}/transcript`, `/agent/runs/${RUN_ID}/transcript/download`]);
      expect(result.stdout).toBe(lines);
    });
  });

  describe('webhooks', () => {
    it('create maps every flag into the body and prints the secret once, with a warning on stderr', async () => {
      stub.handler = () => ({ status: 201, json: { ...webhook(), secret: 'ghsecret_123' } });

      const result = await runCli(
        [
          'webhooks', 'create', '--factory', FACTORY, '--name', 'github-issues', '--auth-mode', 'signature',
          '--scheme', 'github', '--provider-secret', 'ghsecret_123', '--secret-name', 'GH_SECRET',
          '--delivery-id-header', 'X-My-Id',
        ],
        env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: `/factories/${FACTORY}/webhooks`,
        body: {
          name: 'github-issues',
          auth_mode: 'signature',
          signature_scheme: 'github',
          provider_secret: 'ghsecret_123',
          secret_name: 'GH_SECRET',
          delivery_id_header: 'X-My-Id',
        },
      });
      expect(result.stdout).toMatch(/^secret:\s+ghsecret_123$/m);
      expect(result.stdout).toMatch(new RegExp(`^uid:\\s+${WEBHOOK}$`, 'm'));
      expect(result.stderr).toContain('warning: the secret is shown only now');
    });

    it('create with only --scheme implies auth_mode signature; with --json the secret is in the JSON', async () => {
      stub.handler = () => ({ status: 201, json: { ...webhook(), secret: 'whsec_abc' } });

      const result = await runCli(
        ['webhooks', 'create', '--factory', FACTORY, '--name', 'sw', '--scheme', 'standard-webhooks', '--json'],
        env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.body).toEqual({ name: 'sw', auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
      expect(JSON.parse(result.stdout).secret).toBe('whsec_abc');
      expect(result.stderr).toContain('shown only now');
    });

    it('create rejects an --auth-mode outside token|url_token|signature', async () => {
      const result = await runCli(['webhooks', 'create', '--factory', FACTORY, '--name', 'x', '--auth-mode', 'basic'], env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Allowed choices are token, url_token, signature');
      expect(stub.requests).toHaveLength(0);
    });

    it('list prints the factory webhooks as a table', async () => {
      stub.handler = () => ({
        json: { webhooks: [webhook(), webhook({ uid: 'wh_2', name: 'plain', auth_mode: 'token', signature_scheme: null, enabled: false })], page_info: { has_next_page: false, next_cursor: null } },
      });

      const result = await runCli(['webhooks', 'list', '--factory', FACTORY], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: `/factories/${FACTORY}/webhooks` });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^UID\s+NAME\s+AUTH\s+SCHEME\s+ENABLED\s+SECRET\s+INGRESS URL$/);
      expect(lines[1]).toMatch(new RegExp(`^${WEBHOOK}\\s+github-issues\\s+signature\\s+github\\s+yes\\s+`));
      expect(lines[2]).toMatch(/^wh_2\s+plain\s+token\s+-\s+no\s+/);
      // Columns line up: every row's second column starts where the header's does.
      const nameAt = lines[0]!.indexOf('NAME');
      expect(lines.slice(1).every((line) => line[nameAt - 1] === ' ' && line[nameAt] !== ' ')).toBe(true);
    });

    it('rotate posts {provider_secret} (or an empty body) to rotate-secret', async () => {
      stub.handler = () => ({ json: { ...webhook(), secret: 'new_secret' } });

      const withSecret = await runCli(['webhooks', 'rotate', '--factory', FACTORY, WEBHOOK, '--provider-secret', 'p2'], env);
      const generated = await runCli(['webhooks', 'rotate', '--factory', FACTORY, WEBHOOK], env);

      expect(withSecret.code).toBe(0);
      expect(generated.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, { provider_secret: 'p2' }],
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, {}],
      ]);
      expect(generated.stdout).toMatch(/^secret:\s+new_secret$/m);
      expect(generated.stderr).toContain('shown only now');
    });

    it('enable and disable PATCH {enabled}; delete sends DELETE', async () => {
      stub.handler = (request) => {
        if (request.method === 'DELETE') return { status: 204 };
        return { json: webhook({ enabled: (request.body as { enabled: boolean }).enabled }) };
      };

      const disabled = await runCli(['webhooks', 'disable', '--factory', FACTORY, WEBHOOK], env);
      const enabled = await runCli(['webhooks', 'enable', '--factory', FACTORY, WEBHOOK], env);
      const deleted = await runCli(['webhooks', 'delete', '--factory', FACTORY, WEBHOOK, '--json'], env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { enabled: false }],
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { enabled: true }],
        ['DELETE', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, undefined],
      ]);
      expect(disabled.stdout).toBe(`webhook ${WEBHOOK} disabled\n`);
      expect(enabled.stdout).toBe(`webhook ${WEBHOOK} enabled\n`);
      expect(deleted.code).toBe(0);
      expect(JSON.parse(deleted.stdout)).toEqual({ uid: WEBHOOK, deleted: true });
    });
  });

  describe('webhooks update', () => {
    it('update sends only the fields given; --no-delivery-id-header clears it (null); rotate-secret is rotate', async () => {
      stub.handler = (request) => ({ json: request.path.endsWith('/rotate-secret') ? { ...webhook(), secret: 's2' } : webhook() });

      const renamed = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK, '--name', 'gh', '--delivery-id-header', 'X-Id'], env);
      const cleared = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK, '--no-delivery-id-header'], env);
      const empty = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK], env);
      const rotated = await runCli(['webhooks', 'rotate-secret', '--factory', FACTORY, WEBHOOK], env);

      expect(renamed.code).toBe(0);
      expect(cleared.code).toBe(0);
      expect(rotated.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { name: 'gh', delivery_id_header: 'X-Id' }],
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { delivery_id_header: null }],
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, {}],
      ]);
      expect(renamed.stdout).toMatch(new RegExp(`^uid:\\s+${WEBHOOK}$`, 'm'));
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('nothing to update');
      expect(rotated.stderr).toContain('shown only now');
    });
  });

  describe('automations', () => {
    const AUTOMATION = 'aut_01hzyxwvutsrqponmlkjihgfed';
    const automation = {
      uid: AUTOMATION,
      factory_uid: FACTORY,
      name: 'triage',
      prompt: 'Triage it.',
      enabled: false,
      triggers: [
        { provider: 'webhook', event: 'received', filter: { webhook_ids: [WEBHOOK], payload: { action: ['opened'] } } },
      ],
      selected_webhooks: [{ uid: WEBHOOK, name: 'github-issues', state: 'enabled' }],
      created_at: '2026-05-01T12:00:00Z',
      updated_at: '2026-05-01T12:00:00Z',
    };

    it('create builds one trigger from --webhook (repeatable) and --filter (YAML or JSON), with --model and --disabled', async () => {
      stub.handler = () => ({ status: 201, json: automation });

      const result = await runCli(
        [
          'automations', 'create', '--factory', FACTORY, '--name', 'triage', '--prompt', 'Triage it.',
          '--webhook', WEBHOOK, '--webhook', 'wh_2', '--filter', '{action: [opened], issue: {labels: {not_in: [wontfix]}}}',
          '--model', 'gpt-x', '--disabled',
        ],
        env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/factories/${FACTORY}/automations` });
      expect(stub.requests[0]!.body).toEqual({
        name: 'triage',
        prompt: 'Triage it.',
        config: { model_id: 'gpt-x' },
        enabled: false,
        triggers: [
          {
            provider: 'webhook',
            event: 'received',
            filter: { webhook_ids: [WEBHOOK, 'wh_2'], payload: { action: ['opened'], issue: { labels: { not_in: ['wontfix'] } } } },
          },
        ],
      });
      expect(result.stdout).toMatch(/^enabled:\s+no$/m);
      expect(result.stdout).toMatch(new RegExp(`^triggers:\\s+${WEBHOOK}  payload \\{"action":\\["opened"\\]\\}$`, 'm'));
    });

    it('create without --webhook, or with a --filter that is not an object, is a usage error and sends nothing', async () => {
      const noWebhook = await runCli(['automations', 'create', '--factory', FACTORY, '--name', 'x', '--prompt', 'p'], env);
      const badFilter = await runCli(
        ['automations', 'create', '--factory', FACTORY, '--name', 'x', '--prompt', 'p', '--webhook', WEBHOOK, '--filter', '[1, 2]'],
        env,
      );

      expect(noWebhook.code).toBe(1);
      expect(noWebhook.stderr).toContain('pass --webhook <uid>');
      expect(badFilter.code).toBe(1);
      expect(badFilter.stderr).toContain('expected an object');
      expect(stub.requests).toHaveLength(0);
    });

    it('update --model keeps the rest of the config (PATCH replaces it whole)', async () => {
      stub.handler = (request) => ({
        json: request.method === 'GET' ? { ...automation, config: { model_id: 'old', max_turns: 5 } } : automation,
      });

      const result = await runCli(['automations', 'update', '--factory', FACTORY, AUTOMATION, '--model', 'new', '--name', 'n'], env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', `/factories/${FACTORY}/automations/${AUTOMATION}`, undefined],
        ['PATCH', `/factories/${FACTORY}/automations/${AUTOMATION}`, { name: 'n', config: { model_id: 'new', max_turns: 5 } }],
      ]);
    });

    it('test-filter tests a saved automation by uid, or a draft trigger from --webhook/--filter', async () => {
      const answer = {
        result: 'Would not trigger',
        webhook_check: { passed: true, reason: 'Delivery came from selected webhook.' },
        payload_check: { passed: false, reason: 'Field $.action: expected one of ["opened"], got "closed".', path: '$.action' },
      };
      stub.handler = () => ({ json: answer });

      const saved = await runCli(['automations', 'test-filter', '--factory', FACTORY, AUTOMATION, '--delivery', 'dlv_1'], env);
      const draft = await runCli(
        ['automations', 'test-filter', '--factory', FACTORY, '--delivery', 'dlv_1', '--webhook', WEBHOOK, '--filter', '{"action": "closed"}', '--json'],
        env,
      );
      const neither = await runCli(['automations', 'test-filter', '--factory', FACTORY, '--delivery', 'dlv_1'], env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['POST', `/factories/${FACTORY}/automations/${AUTOMATION}/test-filter`, { delivery_id: 'dlv_1' }],
        [
          'POST',
          `/factories/${FACTORY}/test-filter`,
          {
            delivery_id: 'dlv_1',
            trigger: { provider: 'webhook', event: 'received', filter: { webhook_ids: [WEBHOOK], payload: { action: 'closed' } } },
          },
        ],
      ]);
      expect(saved.stdout).toBe(
        [
          'result:         Would not trigger',
          'webhook_check:  passed: Delivery came from selected webhook.',
          'payload_check:  failed at $.action: Field $.action: expected one of ["opened"], got "closed".',
          '',
        ].join('\n'),
      );
      expect(JSON.parse(draft.stdout)).toEqual(answer);
      expect(neither.code).toBe(1);
      expect(neither.stderr).toContain('give <automationUid>, or --webhook <uid>');
    });
  });

  describe('deliveries', () => {
    it("list reads the webhook's delivery log", async () => {
      const page = {
        deliveries: [
          {
            delivery_id: 'dlv_1',
            webhook_uid: WEBHOOK,
            label: 'Accepted',
            rejection_reason: null,
            size: 120,
            received_at: '2026-05-01T12:00:00Z',
            identity: 'evt_1',
            identity_source: 'provider_header',
          },
          {
            delivery_id: 'dlv_2',
            webhook_uid: WEBHOOK,
            label: 'Rejected (auth)',
            rejection_reason: 'no signature matched',
            size: 12,
            received_at: '2026-05-01T12:01:00Z',
            identity: null,
            identity_source: null,
          },
        ],
        page_info: { has_next_page: false, next_cursor: null },
      };
      stub.handler = () => ({ json: page });

      const human = await runCli(['deliveries', 'list', '--factory', FACTORY, WEBHOOK, '--limit', '2'], env);
      const json = await runCli(['deliveries', 'list', '--factory', FACTORY, WEBHOOK, '--json'], env);

      expect(stub.requests[0]!.path).toBe(`/factories/${FACTORY}/webhooks/${WEBHOOK}/deliveries`);
      expect(stub.requests[0]!.query.get('limit')).toBe('2');
      expect(human.code).toBe(0);
      expect(human.stdout.split('\n')[0]).toMatch(/^DELIVERY ID\s+LABEL\s+REASON\s+RECEIVED\s+/);
      expect(human.stdout.split('\n')[1]).toMatch(/^dlv_1\s+Accepted\s+-\s+2026-05-01 12:00:00Z\s+120\s+evt_1$/);
      expect(human.stdout.split('\n')[2]).toMatch(
        /^dlv_2\s+Rejected \(auth\)\s+no signature matched\s+2026-05-01 12:01:00Z\s+12\s+-$/,
      );
      expect(JSON.parse(json.stdout)).toEqual(page);
    });

    it('get prints the rejection reason with a hint for a known one, and an unknown one as it is', async () => {
      const rejected = (reason: string) => ({
        delivery_id: 'dlv_2',
        webhook_uid: WEBHOOK,
        label: 'Rejected (auth)',
        rejection_reason: reason,
        size: 12,
        received_at: '2026-05-01T12:01:00Z',
        identity: null,
        identity_source: null,
      });
      const hints: Array<[reason: string, hint: RegExp | undefined]> = [
        ['no signature matched', /different secret, or the body changed.*`agent-runs webhooks rotate-secret --factory \S+ wh_\S+ --provider-secret <secret>`/],
        ['timestamp outside tolerance', /more than 5 minutes .*a replay, or a clock is off/],
        ['secret not configured', /not set yet: set it with `agent-runs webhooks rotate-secret /],
        ['missing signature header', /sends no credential: check the provider's signing setting, or that it calls the full ingress URL/],
        ['missing token', /sends no credential/],
        ['wrong token', /an old one after a rotation/],
        ['a reason added later', undefined],
      ];
      for (const [reason, hint] of hints) {
        stub.handler = () => ({ json: rejected(reason) });
        const result = await runCli(['deliveries', 'get', '--factory', FACTORY, WEBHOOK, 'dlv_2'], env);

        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^rejection_reason:\\s+${reason}$`, 'm'));
        if (hint) expect(result.stdout.match(/^hint:\s+(.*)$/m)?.[1]).toMatch(hint);
        else expect(result.stdout).not.toMatch(/^hint:/m);
      }
    });
  });

  describe('notifications', () => {
    const SUB = 'sub_01hzx3k4m5n6p7q8r9s0t1v2w3';
    const subscription = (overrides: Record<string, unknown> = {}) => ({
      uid: SUB,
      url: 'https://ops.example.com/agent-runs',
      description: null,
      event_types: ['run.failed', 'run.error'],
      filter: { factory_uid: FACTORY, automation_id: null },
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
      created_at: '2026-05-01T12:00:00.000Z',
      updated_at: '2026-05-01T12:00:00.000Z',
      ...overrides,
    });

    it('create maps --url, repeated or comma-separated --event, the filter, --description and --disabled; prints the secret once', async () => {
      stub.handler = () => ({ status: 201, json: { ...subscription({ enabled: false, disabled_reason: 'manual' }), secret: 'whsec_c2VjcmV0' } });

      const result = await runCli(
        [
          'notifications', 'create', '--url', 'https://ops.example.com/agent-runs', '--event', 'run.failed', '--event', 'run.error,run.cancelled',
          '--factory', FACTORY, '--automation', 'aut_1', '--description', 'Ops', '--disabled',
        ],
        env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/notifications/subscriptions',
        body: {
          url: 'https://ops.example.com/agent-runs',
          event_types: ['run.failed', 'run.error', 'run.cancelled'],
          filter: { factory_uid: FACTORY, automation_id: 'aut_1' },
          description: 'Ops',
          enabled: false,
        },
      });
      expect(result.stdout).toMatch(/^secret:\s+whsec_c2VjcmV0$/m);
      expect(result.stdout).toMatch(/^enabled:\s+no \(manual\)$/m);
      expect(result.stderr).toContain('warning: the signing secret is shown only now');
    });

    it('create refuses an unknown --event, and a missing --url, before sending anything', async () => {
      const unknown = await runCli(['notifications', 'create', '--url', 'https://x.example.com/', '--event', 'run.exploded'], env);
      const noUrl = await runCli(['notifications', 'create', '--event', 'run.failed'], env);

      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('run.state_changed, run.succeeded, run.failed, run.error, run.cancelled');
      expect(noUrl.code).toBe(1);
      expect(noUrl.stderr).toContain('--url');
      expect(stub.requests).toEqual([]);
    });

    it('list prints a table with the filter, the reason of a disable and the failing period', async () => {
      stub.handler = () => ({
        json: {
          subscriptions: [
            subscription(),
            subscription({ uid: 'sub_2', filter: { factory_uid: null, automation_id: null }, event_types: ['run.state_changed'], enabled: false, disabled_reason: 'failing', failing_since: '2026-04-26T08:00:00Z' }),
          ],
          page_info: { has_next_page: false, next_cursor: null },
        },
      });

      const result = await runCli(['notifications', 'list', '--limit', '2'], env);

      expect(stub.requests[0]!.query.get('limit')).toBe('2');
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^UID\s+URL\s+EVENTS\s+FILTER\s+ENABLED\s+FAILING SINCE$/);
      expect(lines[1]).toMatch(new RegExp(`^${SUB}\\s+https://ops.example.com/agent-runs\\s+run.failed,run.error\\s+${FACTORY}\\s+yes\\s+-$`));
      expect(lines[2]).toMatch(/^sub_2\s+\S+\s+run.state_changed\s+every run\s+no \(failing\)\s+2026-04-26 08:00:00Z$/);
    });

    it('update sends only what is given: --no-description is null, --no-filter is {}; nothing is a usage error', async () => {
      stub.handler = () => ({ json: subscription() });

      const changed = await runCli(['notifications', 'update', SUB, '--url', 'https://new.example.com/', '--event', 'run.succeeded', '--automation', 'aut_9'], env);
      const cleared = await runCli(['notifications', 'update', SUB, '--no-description', '--no-filter'], env);
      const empty = await runCli(['notifications', 'update', SUB], env);

      expect(changed.code).toBe(0);
      expect(cleared.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/notifications/subscriptions/${SUB}`, { url: 'https://new.example.com/', event_types: ['run.succeeded'], filter: { automation_id: 'aut_9' } }],
        ['PATCH', `/notifications/subscriptions/${SUB}`, { description: null, filter: {} }],
      ]);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('nothing to update');
    });

    it('enable, disable, rotate, delete, attempts (with --event, --run, --limit) and replay send their requests', async () => {
      stub.handler = (request) => {
        if (request.method === 'DELETE') return { status: 204 };
        if (request.path.endsWith('/rotate-secret')) return { json: { ...subscription({ previous_secret_expires_at: '2026-05-02T12:00:00Z' }), secret: 'whsec_bmV3' } };
        if (request.path.endsWith('/replay')) return { status: 202, json: { event_id: 'evt_1', subscription_uid: SUB, next_attempt_at: '2026-05-01T12:00:00Z' } };
        if (request.path.endsWith('/attempts')) {
          return {
            json: {
              attempts: [
                { uid: 'att_1', event_id: 'evt_1', event_type: 'run.failed', run_id: RUN_ID, attempt: 2, attempted_at: '2026-05-01T12:00:07Z', outcome: 'retrying', status_code: 503, latency_ms: 41, error: null, response_excerpt: 'upstream down', next_attempt_at: '2026-05-01T12:00:20Z' },
              ],
              page_info: { has_next_page: true, next_cursor: 'c2' },
            },
          };
        }
        return { json: subscription({ enabled: (request.body as { enabled: boolean }).enabled }) };
      };

      const disabled = await runCli(['notifications', 'disable', SUB], env);
      const enabled = await runCli(['notifications', 'enable', SUB], env);
      const rotated = await runCli(['notifications', 'rotate', SUB], env);
      const deleted = await runCli(['notifications', 'delete', SUB, '--json'], env);
      const attempts = await runCli(['notifications', 'attempts', SUB, '--event', 'evt_1', '--run', RUN_ID, '--limit', '1'], env);
      const replayed = await runCli(['notifications', 'replay', SUB, 'evt_1'], env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/notifications/subscriptions/${SUB}`, { enabled: false }],
        ['PATCH', `/notifications/subscriptions/${SUB}`, { enabled: true }],
        ['POST', `/notifications/subscriptions/${SUB}/rotate-secret`, {}],
        ['DELETE', `/notifications/subscriptions/${SUB}`, undefined],
        ['GET', `/notifications/subscriptions/${SUB}/attempts`, undefined],
        ['POST', `/notifications/subscriptions/${SUB}/events/evt_1/replay`, undefined],
      ]);
      expect(Object.fromEntries(stub.requests[4]!.query)).toEqual({ event_id: 'evt_1', run_id: RUN_ID, limit: '1' });
      expect(disabled.stdout).toBe(`subscription ${SUB} disabled\n`);
      expect(enabled.stdout).toBe(`subscription ${SUB} enabled\n`);
      expect(rotated.stdout).toMatch(/^secret:\s+whsec_bmV3$/m);
      expect(rotated.stdout).toMatch(/^previous_secret_expires_at:\s+2026-05-02 12:00:00Z$/m);
      expect(JSON.parse(deleted.stdout)).toEqual({ uid: SUB, deleted: true });
      const lines = attempts.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ATTEMPTED\s+EVENT\s+TYPE\s+#\s+OUTCOME\s+STATUS\s+MS\s+NEXT\s+DETAIL$/);
      expect(lines[1]).toMatch(/^2026-05-01 12:00:07Z\s+evt_1\s+run.failed\s+2\s+retrying\s+503\s+41\s+2026-05-01 12:00:20Z\s+upstream down$/);
      expect(attempts.stdout).toContain('--cursor c2');
      expect(replayed.stdout).toBe(`event evt_1 queued for subscription ${SUB} (due 2026-05-01 12:00:00Z)\n`);
    });
  });

  describe('factory apply', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-'));
      await mkdir(path.join(dir, 'webhooks'));
      await mkdir(path.join(dir, 'automations'));
      await writeFile(path.join(dir, 'webhooks', 'github.yaml'), 'name: github\nauth_mode: token\n');
      await writeFile(path.join(dir, 'webhooks', 'README.txt'), 'not a definition');
      await writeFile(path.join(dir, 'automations', 'triage.md'), '---\nname: triage\n---\nTriage it.\n');
      await writeFile(path.join(dir, 'automations', 'b.md'), '---\nname: b\n---\nB.\n');
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('sends webhooks/*.yaml and automations/*.md as {files: [{path, content}]} and prints the UID map', async () => {
      stub.handler = () => ({
        json: {
          webhooks: [{ file: 'webhooks/github.yaml', uid: WEBHOOK, name: 'github', secret_name: 'WEBHOOK_GITHUB_SECRET' }],
          automations: [
            { file: 'automations/b.md', uid: 'aut_b', name: 'b' },
            { file: 'automations/triage.md', uid: 'aut_t', name: 'triage' },
          ],
          deleted: { webhooks: [], automations: ['aut_old'] },
        },
      });

      const result = await runCli(['factory', 'apply', '--factory', FACTORY, dir], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/factories/${FACTORY}/definitions/apply` });
      expect(stub.requests[0]!.body).toEqual({
        files: [
          { path: 'webhooks/github.yaml', content: 'name: github\nauth_mode: token\n' },
          { path: 'automations/b.md', content: '---\nname: b\n---\nB.\n' },
          { path: 'automations/triage.md', content: '---\nname: triage\n---\nTriage it.\n' },
        ],
      });
      expect(result.stdout).toMatch(new RegExp(`^webhooks/github.yaml\\s+${WEBHOOK}\\s+github\\s+WEBHOOK_GITHUB_SECRET$`, 'm'));
      expect(result.stdout).toMatch(/^automations\/triage.md\s+aut_t\s+triage$/m);
      expect(result.stdout).toContain('deleted: aut_old');
    });

    it('prints each file error of a 422 on stderr and exits 1', async () => {
      const answer = problem(422, 'validation_failed', 'Definition files are invalid.');
      (answer.json as Record<string, unknown>).file_errors = [
        { file: 'webhooks/github.yaml', message: 'auth_mode: must be one of token, url_token, signature' },
        { file: 'automations/b.md', message: 'front matter: webhooks is required' },
      ];
      stub.handler = () => answer;

      const result = await runCli(['factory', 'apply', '--factory', FACTORY, dir], env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: 422 validation_failed: Definition files are invalid.');
      expect(result.stderr).toContain('  webhooks/github.yaml: auth_mode: must be one of token, url_token, signature');
      expect(result.stderr).toContain('  automations/b.md: front matter: webhooks is required');
    });

    it('refuses a directory without definition files (applying none would delete everything)', async () => {
      const empty = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-empty-'));
      try {
        const result = await runCli(['factory', 'apply', '--factory', FACTORY, empty], env);

        expect(result.code).toBe(1);
        expect(result.stderr).toContain('no definition files');
        expect(stub.requests).toHaveLength(0);
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
    });
  });

  describe('configuration and connection errors', () => {
    it('without an API key exits 1 naming the flag and the variable, sending nothing', async () => {
      const result = await runCli(['runs', 'list'], { AGENT_RUNS_BASE_URL: stub.url });

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('missing API key: pass --api-key or set AGENT_RUNS_API_KEY');
      expect(stub.requests).toHaveLength(0);
    });

    it('exits 2 with a clear message when the API cannot be reached', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const baseUrl = `http://127.0.0.1:${port}/api/v1`;

      const result = await runCli(['runs', 'list'], { AGENT_RUNS_API_KEY: 'k', AGENT_RUNS_BASE_URL: baseUrl });

      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: cannot reach the API at ${baseUrl}`);
      expect(result.stderr).toContain('ECONNREFUSED');
    });
  });

  describe('budget and usage', () => {
    const BUDGET = {
      max_tokens_per_month: null,
      max_cost_usd_per_month: 50,
      month: '2026-11',
      used_tokens: 1200,
      used_cost_usd: 0.42,
      exceeded: false,
      updated_at: '2026-11-02T09:00:00Z',
    };

    it('budget set changes the limit given and keeps the other one as it is', async () => {
      stub.handler = (request) => ({ json: request.method === 'PUT' ? { ...BUDGET, max_tokens_per_month: 2_000_000 } : BUDGET });

      const result = await runCli(['budget', 'set', '--max-tokens', '2000000'], env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /team/budget', 'PUT /team/budget']);
      expect(stub.requests[1]!.body).toEqual({ max_tokens_per_month: 2_000_000, max_cost_usd_per_month: 50 });
      expect(result.stdout).toContain('max_tokens_per_month:    2,000,000\n');
      expect(result.stdout).toContain('max_cost_usd_per_month:  $50\n');
    });

    it('budget set --max-cost none removes that limit without reading the budget first when both are given', async () => {
      stub.handler = () => ({ json: { ...BUDGET, max_cost_usd_per_month: null } });

      const result = await runCli(['budget', 'set', '--max-tokens', '10', '--max-cost', 'none', '--json'], env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.body])).toEqual([['PUT', { max_tokens_per_month: 10, max_cost_usd_per_month: null }]]);
      expect(JSON.parse(result.stdout)).toMatchObject({ max_cost_usd_per_month: null });
    });

    it('budget set without a limit or with a bad one is a usage error and sends nothing', async () => {
      expect(await runCli(['budget', 'set'], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('give --max-tokens and/or --max-cost') });
      expect((await runCli(['budget', 'set', '--max-tokens', '1.5'], env)).code).toBe(1);
      expect(stub.requests).toHaveLength(0);
    });

    it('budget get shows a member the limits; a refused set prints the problem', async () => {
      stub.handler = (request) => (request.method === 'PUT' ? problem(403, 'not_authorized', 'This operation requires an admin API key.') : { json: BUDGET });

      const shown = await runCli(['budget', 'get'], env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('max_tokens_per_month:    no limit\n');
      expect(shown.stdout).toContain('exceeded:                no\n');

      const refused = await runCli(['budget', 'set', '--max-tokens', '5', '--max-cost', '5'], env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('This operation requires an admin API key.');
    });

    it('usage --month reads that month, in total and per model', async () => {
      stub.handler = () => ({
        json: {
          month: '2026-10',
          prompt_tokens: 1000,
          completion_tokens: 200,
          total_tokens: 1200,
          cost_usd: 0.42,
          models: [{ model_id: 'gpt-4.1', prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, cost_usd: 0.42 }],
        },
      });

      const result = await runCli(['usage', '--month', '2026-10'], env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.path).toBe('/usage');
      expect(stub.requests[0]!.query.get('month')).toBe('2026-10');
      expect(result.stdout).toContain('total_tokens:       1,200\n');
      expect(result.stdout).toMatch(/MODEL\s+PROMPT\s+COMPLETION\s+TOTAL\s+COST\ngpt-4\.1\s+1,000\s+200\s+1,200\s+\$0\.42/);
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// (b) End to end against the real server (echo runner)
// ---------------------------------------------------------------------------------------------------

type TestServer = Awaited<ReturnType<typeof import('../../server/test/support/server').startTestServer>>;

describe('agent-runs against the real server', () => {
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Imported here so the stub tests above do not depend on the server's code.
    const { startTestServer } = await import('../../server/test/support/server');
    server = await startTestServer();
    env = { AGENT_RUNS_API_KEY: server.adminKey, AGENT_RUNS_BASE_URL: server.apiUrl };
  });
  afterAll(() => server?.close());

  it('run --wait reaches a terminal state, runs list shows it, and cancelling it exits 1 with the 400 detail (Oz: a finished run cannot be cancelled)', async () => {
    const run = await runCli(['run', '--prompt', 'hi', '--name', 'cli-e2e', '--wait', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const finished = JSON.parse(run.stdout) as { run_id: string; state: string; agent_config?: { name?: string } };
    expect(finished.state).toBe('SUCCEEDED');
    expect(finished.agent_config?.name).toBe('cli-e2e');

    const list = await runCli(['runs', 'list', '--name', 'cli-e2e', '--state', 'SUCCEEDED', '--json'], env);
    expect(list.code).toBe(0);
    const page = JSON.parse(list.stdout) as { runs: Array<{ run_id: string }> };
    expect(page.runs.map((r) => r.run_id)).toContain(finished.run_id);

    const table = await runCli(['runs', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(finished.run_id);

    const cancel = await runCli(['runs', 'cancel', finished.run_id], env);
    expect(cancel.code).toBe(1);
    expect(cancel.stdout).toBe('');
    expect(cancel.stderr).toMatch(/^error: 400 invalid_request: .+/m);
    expect(cancel.stderr).toMatch(/trace id: \S+/);
  });

  it('runs watch of a finished run ends with its terminal state; runs get shows it', async () => {
    const created = await runCli(['run', '--prompt', 'watch me', '--json'], env);
    expect(created.code).toBe(0);
    const { run_id: runId } = JSON.parse(created.stdout) as { run_id: string };

    const watch = await runCli(['runs', 'watch', runId], env);
    expect(watch.code).toBe(0);
    const lines = watch.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/ state {2}SUCCEEDED/);

    const get = await runCli(['runs', 'get', runId], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
  });

  it('a wrong API key exits 1 with the 401 detail', async () => {
    const result = await runCli(['runs', 'list'], { ...env, AGENT_RUNS_API_KEY: 'ar_live_wrong' });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: 401 authentication_required: .+/m);
  });

  it('webhooks create prints the secret once; list, disable and deliveries list read it back', async () => {
    const factoryUid = await createFactory('cli-webhooks', 'api');

    const created = await runCli(['webhooks', 'create', '--factory', factoryUid, '--name', 'plain', '--json'], env);
    expect(created.code).toBe(0);
    const webhook = JSON.parse(created.stdout) as { uid: string; secret: string | null; secret_name: string };
    expect(webhook.secret).toEqual(expect.any(String));
    expect(created.stderr).toContain('shown only now');

    const listed = await runCli(['webhooks', 'list', '--factory', factoryUid, '--json'], env);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { webhooks: Array<{ uid: string; secret?: unknown }> };
    expect(page.webhooks.map((w) => w.uid)).toEqual([webhook.uid]);
    expect(listed.stdout).not.toContain(webhook.secret!);

    const disabled = await runCli(['webhooks', 'disable', '--factory', factoryUid, webhook.uid], env);
    expect(disabled.stdout).toBe(`webhook ${webhook.uid} disabled\n`);

    const deliveries = await runCli(['deliveries', 'list', '--factory', factoryUid, webhook.uid], env);
    expect(deliveries.code).toBe(0);
    expect(deliveries.stdout).toBe('no deliveries\n');
  });

  it('deliveries list and get show why a delivery was rejected (a wrong token), with a hint', async () => {
    const F = ['--factory', await createFactory('cli-rejections', 'api')];
    const hook = (await api('POST', `/factories/${F[1]}/webhooks`, { name: 'rejecting' })) as { uid: string; ingress_url: string };
    const response = await fetch(hook.ingress_url, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-secret', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);

    const list = await runCli(['deliveries', 'list', ...F, hook.uid], env);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^DELIVERY ID\s+LABEL\s+REASON\s+/);
    const row = /^(dlv_\S+)\s+Rejected \(auth\)\s+wrong token\s+/m.exec(list.stdout);
    expect(row).not.toBeNull();
    const deliveryId = row![1]!;

    const get = await runCli(['deliveries', 'get', ...F, hook.uid, deliveryId], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^label:\s+Rejected \(auth\)\nrejection_reason:\s+wrong token\nhint:\s+.*old one after a rotation$/m);
    const json = await runCli(['deliveries', 'get', ...F, hook.uid, deliveryId, '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ delivery_id: deliveryId, rejection_reason: 'wrong token' });
  });

  it('factory apply creates definitions from a directory and prints the UID map; an invalid file exits 1 naming it', async () => {
    const factoryUid = await createFactory('cli-files', 'files');
    await api('PUT', '/secrets/CLI_HOOK_SECRET', { value: 'a-long-enough-shared-secret-value' });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-apply-'));
    try {
      await mkdir(path.join(dir, 'webhooks'));
      await writeFile(path.join(dir, 'webhooks', 'hook.yaml'), 'authMode: token\nsecretName: CLI_HOOK_SECRET\n');

      const applied = await runCli(['factory', 'apply', '--factory', factoryUid, dir, '--json'], env);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      const answer = JSON.parse(applied.stdout) as { webhooks: Array<{ file: string; uid: string; name: string }> };
      expect(answer.webhooks).toEqual([
        expect.objectContaining({ file: 'webhooks/hook.yaml', name: 'hook', uid: expect.stringMatching(/^wh_/) }),
      ]);
      const hookUid = answer.webhooks[0]!.uid;

      await mkdir(path.join(dir, 'automations'));
      await writeFile(
        path.join(dir, 'automations', 'triage.md'),
        `---\ntriggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [${hookUid}]\n---\nTriage the event.\n`,
      );
      const withAutomation = await runCli(['factory', 'apply', '--factory', factoryUid, dir], env);
      expect(withAutomation.stderr).toBe('');
      expect(withAutomation.code).toBe(0);
      expect(withAutomation.stdout).toMatch(new RegExp(`^webhooks/hook.yaml\\s+${hookUid}\\s+hook\\s+CLI_HOOK_SECRET$`, 'm'));
      expect(withAutomation.stdout).toMatch(/^automations\/triage.md\s+aut_\S+\s+triage$/m);

      await writeFile(path.join(dir, 'webhooks', 'broken.yaml'), 'authMode: carrier-pigeon\nsecretName: CLI_HOOK_SECRET\n');
      const broken = await runCli(['factory', 'apply', '--factory', factoryUid, dir], env);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^error: 422 validation_failed: /m);
      expect(broken.stderr).toMatch(/^ {2}webhooks\/broken.yaml: .*authMode/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs transcript, models, agents and environments against the real server', async () => {
    const run = await runCli(['run', '--prompt', 'transcribe', '--wait', '--json'], env);
    expect(run.code).toBe(0);
    const { run_id: runId } = JSON.parse(run.stdout) as { run_id: string };
    const transcript = await runCli(['runs', 'transcript', runId], env);
    expect(transcript.code).toBe(0);
    const lines = transcript.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { role: string });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant']);

    const models = await runCli(['models'], env);
    expect(models.stdout).toMatch(/^\* +echo +UNKNOWN +The echo runner uses no language model/m);
    const agents = await runCli(['agents', '--repo', 'agent-runs/bundled'], env);
    expect(agents.stdout).toContain('agent-runs/bundled:create-skill/SKILL.md');
    const skillRun = await runCli(['run', '--skill', 'agent-runs/bundled:create-skill/SKILL.md', '--json'], env);
    expect(skillRun.code).toBe(0);

    const created = await fetch(`${server.apiUrl}/agent/environments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cli-env', setup_commands: ['true'] }),
    });
    const { uid } = (await created.json()) as { uid: string };
    const listed = await runCli(['environments', 'list', '--sort-by', 'name', '--json'], env);
    expect((JSON.parse(listed.stdout) as { environments: Array<{ uid: string }> }).environments.map((e) => e.uid)).toContain(uid);
    const inEnv = await runCli(['run', '--prompt', 'in env', '--environment', uid, '--json'], env);
    expect(inEnv.code).toBe(0);
    expect((await runCli(['environments', 'get', uid], env)).stdout).toMatch(/last_task: +\S+ \((QUEUED|CLAIMED|INPROGRESS|SUCCEEDED|FAILED)\)/);

    const waited = JSON.parse((await runCli(['run', '--prompt', 'in env', '--environment', uid, '--wait', '--json'], env)).stdout) as { run_id: string };
    const setupLog = await runCli(['runs', 'setup-log', waited.run_id], env);
    expect(setupLog.code).toBe(0);
    expect(setupLog.stdout).toMatch(/^\S+ \S+ {2}command 1 of 1 {2}exited with code 0\n {2}\$ true$/m);
  });

  it("run --wait shows the run id and progress on stderr and the agent's answer last; runs create and runs conversation", async () => {
    const run = await runCli(['run', '--prompt', 'Say this back', '--wait'], env);
    expect(run.code).toBe(0);
    const runId = /^run_id: (\S+)\n/.exec(run.stderr)?.[1];
    expect(runId).toBeDefined();
    expect(run.stderr).toMatch(/^state: SUCCEEDED {2}\d+s\n$/m);
    expect(run.stdout).toMatch(new RegExp(`^run_id:\\s+${runId}$`, 'm'));
    expect(run.stdout).toMatch(/\n\nanswer:\nSay this back\n$/);

    const created = await runCli(['runs', 'create', '--prompt', 'created by the alias', '--wait', '--json'], env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ state: 'SUCCEEDED', prompt: 'created by the alias' });

    const conversation = await runCli(['runs', 'conversation', runId!], env);
    expect(conversation.code).toBe(0);
    expect(conversation.stdout).toMatch(/^step \S+ {2}.+ → .+$/m);
    expect(conversation.stdout).toMatch(/^ {2}\S+ \S+ {2}user {2}text {2}Say this back$/m);
    expect(conversation.stdout).toMatch(/^ {2}\S+ \S+ {2}assistant {2}text {2}Say this back$/m);
    const json = await runCli(['runs', 'conversation', runId!, '--json'], env);
    const body = JSON.parse(json.stdout) as { conversation_id: string; steps: unknown[] };
    expect(body.conversation_id).toMatch(/^conv_/);
    expect(body.steps).toHaveLength(1);
  });

  it('the factory side: factories (create, list, get) and webhooks (create, update, get, rotate-secret, delete)', async () => {
    const created = await runCli(['factories', 'create', '--name', 'cli-factory-side', '--json'], env);
    expect(created.code).toBe(0);
    const factory = JSON.parse(created.stdout) as { uid: string; definition_source: string };
    expect(factory.definition_source).toBe('api');
    const listed = await runCli(['factories', 'list'], env);
    expect(listed.stdout).toMatch(new RegExp(`^${factory.uid}\\s+cli-factory-side\\s+api\\s+`, 'm'));
    const got = await runCli(['factories', 'get', factory.uid], env);
    expect(got.stdout).toMatch(/^name:\s+cli-factory-side$/m);
    const F = ['--factory', factory.uid];

    // Webhooks: create (secret once), update, get, rotate-secret.
    const hook = JSON.parse((await runCli(['webhooks', 'create', ...F, '--name', 'issues', '--json'], env)).stdout) as {
      uid: string;
      secret: string;
      ingress_url: string;
    };
    const renamed = await runCli(['webhooks', 'update', ...F, hook.uid, '--name', 'gh-issues', '--delivery-id-header', 'X-Event-Id'], env);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toMatch(/^delivery_id_header:\s+X-Event-Id$/m);
    expect((await runCli(['webhooks', 'get', ...F, hook.uid], env)).stdout).toMatch(/^name:\s+gh-issues$/m);
    const rotated = await runCli(['webhooks', 'rotate-secret', ...F, hook.uid, '--json'], env);
    expect(rotated.stderr).toContain('shown only now');
    expect((JSON.parse(rotated.stdout) as { secret: string }).secret).not.toBe(hook.secret);
    expect((await runCli(['webhooks', 'delete', ...F, hook.uid], env)).stdout).toBe(`deleted webhook ${hook.uid}\n`);
  });

  it('the factory side: automations, deliveries and test-filter (saved and draft)', async () => {
    const F = ['--factory', await createFactory('cli-automations', 'api')];
    const { secret, ...hook } = (await api('POST', `/factories/${F[1]}/webhooks`, {
      name: 'gh-issues',
      delivery_id_header: 'X-Event-Id',
    })) as { uid: string; secret: string; ingress_url: string };

    // Automations: create, list, get.
    const automationOut = await runCli(
      ['automations', 'create', ...F, '--name', 'triage', '--prompt', 'Triage it.', '--webhook', hook.uid, '--filter', '{action: [opened]}', '--json'],
      env,
    );
    expect(automationOut.stderr).toBe('');
    const automation = JSON.parse(automationOut.stdout) as { uid: string; selected_webhooks: Array<{ state: string }> };
    expect(automation.selected_webhooks).toEqual([expect.objectContaining({ state: 'enabled' })]);
    const automations = await runCli(['automations', 'list', ...F], env);
    expect(automations.stdout).toMatch(new RegExp(`^${automation.uid}\\s+triage\\s+yes\\s+gh-issues\\s+`, 'm'));
    expect((await runCli(['automations', 'get', ...F, automation.uid], env)).stdout).toMatch(
      new RegExp(`^triggers:\\s+${hook.uid}  payload \\{"action":\\["opened"\\]\\}$`, 'm'),
    );

    // Two deliveries: "opened" starts a run through the automation, "closed" does not.
    for (const [id, action] of [['evt-opened', 'opened'], ['evt-closed', 'closed']]) {
      const response = await fetch(hook.ingress_url, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-event-id': id! },
        body: JSON.stringify({ action }),
      });
      expect(response.status).toBe(202);
    }
    const deliveries = await runCli(['deliveries', 'list', ...F, hook.uid, '--json'], env);
    const page = JSON.parse(deliveries.stdout) as { deliveries: Array<{ delivery_id: string; identity: string }> };
    const closed = page.deliveries.find((delivery) => delivery.identity === 'evt-closed')!.delivery_id;
    const delivery = await runCli(['deliveries', 'get', ...F, hook.uid, closed], env);
    expect(delivery.stdout).toMatch(/^payload:\s+\{\n\s+"action": "closed"\n\s+\}$/m);

    // test-filter: the saved automation would not trigger on "closed"; a draft filter on "closed" would.
    const saved = await runCli(['automations', 'test-filter', ...F, automation.uid, '--delivery', closed], env);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/^result:\s+Would not trigger$/m);
    expect(saved.stdout).toMatch(/^payload_check:\s+failed at \$\.action: /m);
    const draft = await runCli(
      ['automations', 'test-filter', ...F, '--delivery', closed, '--webhook', hook.uid, '--filter', '{"action": "closed"}'],
      env,
    );
    expect(draft.stdout).toMatch(/^result:\s+Would trigger$/m);

    // Replay: nothing for "closed" until the automation's filter says so.
    expect((await runCli(['deliveries', 'replay', ...F, hook.uid, closed], env)).stdout).toContain('matched no automation');
    const updated = await runCli(['automations', 'update', ...F, automation.uid, '--webhook', hook.uid, '--filter', '{action: closed}'], env);
    expect(updated.code).toBe(0);
    const replayed = await runCli(['deliveries', 'replay', ...F, hook.uid, closed, '--json'], env);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ runs: [expect.objectContaining({ automation_id: automation.uid })] });

    // Disable, delete.
    expect((await runCli(['automations', 'disable', ...F, automation.uid], env)).stdout).toBe(`automation ${automation.uid} disabled\n`);
    const deleted = await runCli(['automations', 'delete', ...F, automation.uid, '--json'], env);
    expect(JSON.parse(deleted.stdout)).toEqual({ uid: automation.uid, deleted: true });
    expect((await runCli(['automations', 'list', ...F], env)).stdout).toBe('no automations\n');
  });

  /** Calls the API directly, for the setup the CLI has no command for. */
  async function api(method: string, urlPath: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${server.apiUrl}${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }

  async function createFactory(name: string, definitionSource: 'api' | 'files'): Promise<string> {
    const factory = (await api('POST', '/factories', { name, definition_source: definitionSource })) as { uid: string };
    return factory.uid;
  }
});

describe('agent-runs schedules', () => {
  const SCHEDULE = 'sch_01hzyxwvutsrqponmlkjihgfed';
  const creator = { type: 'service_account', uid: 'key_1', display_name: 'ops' };
  const schedule = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: SCHEDULE,
    name: 'Nightly deps',
    cron_schedule: '30 2 * * *',
    time_zone: 'Europe/Paris',
    enabled: true,
    prompt: 'Check the dependencies',
    last_spawn_error: null,
    agent_config: { model_id: 'gpt-x', max_turns: 20 },
    metadata: { team: 'platform' },
    created_at: '2026-05-01T12:00:00.000Z',
    updated_at: '2026-05-01T12:00:00.000Z',
    created_by: creator,
    updated_by: creator,
    history: {
      last_ran: null, next_run: '2026-05-02T00:30:00.000Z', last_run_id: null, last_slot: null, last_fired_at: null,
      last_outcome: null, skipped_slots: 0,
    },
    scope: { type: 'Team', uid: 'team_1' },
    ...overrides,
  });

  describe('against a stub API', () => {
    const stub = new StubApi();
    let env: Record<string, string>;
    beforeAll(async () => {
      await stub.start();
      env = { AGENT_RUNS_API_KEY: 'ar_live_test', AGENT_RUNS_BASE_URL: stub.url };
    });
    afterAll(() => stub.close());
    beforeEach(() => {
      stub.requests.length = 0;
    });

    it('create maps --cron, --time-zone, --prompt, --skill, --model, --config-name, --metadata and --disabled into the body', async () => {
      stub.handler = () => ({ status: 201, json: schedule({ enabled: false }) });
      const result = await runCli(
        [
          'schedules', 'create', '--name', 'Nightly deps', '--cron', '30 2 * * *', '--time-zone', 'Europe/Paris', '--prompt', 'Check',
          '--skill', 'acme/skills:deps', '--model', 'gpt-x', '--config-name', 'deps', '--metadata', 'team=platform,ticket=a=b', '--disabled',
        ],
        env,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        [
          'POST',
          '/agent/schedules',
          {
            name: 'Nightly deps', cron_schedule: '30 2 * * *', time_zone: 'Europe/Paris', prompt: 'Check', enabled: false,
            agent_config: { skill_spec: 'acme/skills:deps', model_id: 'gpt-x', name: 'deps' }, metadata: { team: 'platform', ticket: 'a=b' },
          },
        ],
      ]);
      expect(stub.requests[0]!.headers['idempotency-key']).toBeTruthy();
      expect(result.stdout).toMatch(/^enabled:\s+no \(paused\)$/m);
      expect(result.stdout).toMatch(/^next_run:\s+2026-05-02 00:30:00Z$/m);
    });

    it('create without a prompt or a skill, or with a malformed --metadata, is a usage error and sends nothing', async () => {
      const noPrompt = await runCli(['schedules', 'create', '--name', 'x', '--cron', '@daily'], env);
      const badMetadata = await runCli(['schedules', 'create', '--name', 'x', '--cron', '@daily', '--prompt', 'p', '--metadata', 'novalue'], env);
      expect(noPrompt.code).toBe(1);
      expect(noPrompt.stderr).toContain('pass --prompt <text>, --prompt-file <path> or --skill <spec>');
      expect(badMetadata.code).toBe(1);
      expect(badMetadata.stderr).toContain('expected key=value');
      expect(stub.requests).toHaveLength(0);
    });

    it('update reads the schedule and PUTs it back whole with the flags given; --no-metadata clears the metadata', async () => {
      stub.handler = (request) => ({ json: request.method === 'GET' ? schedule() : schedule({ cron_schedule: '0 3 * * *' }) });
      const result = await runCli(['schedules', 'update', SCHEDULE, '--cron', '0 3 * * *', '--model', 'gpt-y', '--no-metadata'], env);
      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', `/agent/schedules/${SCHEDULE}`, undefined],
        [
          'PUT',
          `/agent/schedules/${SCHEDULE}`,
          {
            name: 'Nightly deps', cron_schedule: '0 3 * * *', enabled: true, time_zone: 'Europe/Paris', prompt: 'Check the dependencies',
            agent_config: { model_id: 'gpt-y', max_turns: 20 },
          },
        ],
      ]);
      stub.requests.length = 0;
      const nothing = await runCli(['schedules', 'update', SCHEDULE], env);
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('nothing to update');
      expect(stub.requests).toHaveLength(0);
    });

    it('update --skill of a skill-only schedule lets the server write the new skill\'s prompt', async () => {
      const skillOnly = schedule({ prompt: 'Follow the instructions of the skill acme/skills:old.', agent_config: { skill_spec: 'acme/skills:old' }, metadata: undefined });
      stub.handler = () => ({ json: skillOnly });
      expect((await runCli(['schedules', 'update', SCHEDULE, '--skill', 'acme/skills:new'], env)).code).toBe(0);
      expect(stub.requests[1]!.body).toEqual({ name: 'Nightly deps', cron_schedule: '30 2 * * *', enabled: true, time_zone: 'Europe/Paris', agent_config: { skill_spec: 'acme/skills:new' } });
    });

    it('list, get, pause, resume, delete and runs send their requests and print for people', { timeout: 120_000 }, async () => {
      stub.handler = (request) => {
        if (request.path === '/agent/schedules') return { json: { schedules: [schedule()], page_info: { has_next_page: false, next_cursor: null } } };
        if (request.path.endsWith('/pause')) return { json: schedule({ enabled: false, history: { ...(schedule().history as object), next_run: null } }) };
        if (request.path.endsWith('/resume')) return { json: schedule() };
        if (request.path === '/agent/runs') return { json: { runs: [runItem({ source: 'SCHEDULED_AGENT' })], page_info: { has_next_page: false, next_cursor: null } } };
        if (request.method === 'DELETE') return { json: { success: true } };
        return { json: schedule({ last_spawn_error: 'config.environment_id names no environment of this team.' }) };
      };
      const list = await runCli(['schedules', 'list', '--limit', '10'], env);
      expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+CRON\s+TIME ZONE\s+ENABLED\s+NEXT RUN\s+LAST$/);
      expect(list.stdout).toMatch(new RegExp(`^${SCHEDULE}\\s+Nightly deps\\s+30 2 \\* \\* \\*\\s+Europe/Paris\\s+yes\\s+2026-05-02 00:30:00Z`, 'm'));
      const get = await runCli(['schedules', 'get', SCHEDULE], env);
      expect(get.stdout).toMatch(/^last_spawn_error:\s+config.environment_id names no environment/m);
      expect((await runCli(['schedules', 'pause', SCHEDULE], env)).stdout).toBe(`scheduled agent ${SCHEDULE} paused\n`);
      expect((await runCli(['schedules', 'resume', SCHEDULE], env)).stdout).toBe(`scheduled agent ${SCHEDULE} resumed; next run 2026-05-02 00:30:00Z\n`);
      expect((await runCli(['schedules', 'delete', SCHEDULE], env)).stdout).toBe(`deleted scheduled agent ${SCHEDULE}\n`);
      expect(JSON.parse((await runCli(['schedules', 'delete', SCHEDULE, '--json'], env)).stdout)).toEqual({ success: true });
      expect((await runCli(['schedules', 'runs', SCHEDULE], env)).stdout).toContain(RUN_ID);
      expect(stub.requests.map((r) => `${r.method} ${r.path}${r.query.toString() ? `?${r.query}` : ''}`)).toEqual([
        'GET /agent/schedules?limit=10',
        `GET /agent/schedules/${SCHEDULE}`,
        `POST /agent/schedules/${SCHEDULE}/pause`,
        `POST /agent/schedules/${SCHEDULE}/resume`,
        `DELETE /agent/schedules/${SCHEDULE}`,
        `DELETE /agent/schedules/${SCHEDULE}`,
        `GET /agent/runs?schedule_id=${SCHEDULE}`,
      ]);
    });
  });

  describe('against the real server (a clock the test moves)', () => {
    let server: TestServer;
    let env: Record<string, string>;
    let now = Date.parse('2026-11-27T08:00:00Z');
    beforeAll(async () => {
      const { startTestServer } = await import('../../server/test/support/server');
      server = await startTestServer({ clock: { now: () => new Date(now) }, engine: { scheduler: false } });
      env = { AGENT_RUNS_API_KEY: server.adminKey, AGENT_RUNS_BASE_URL: server.apiUrl };
    });
    afterAll(() => server?.close());

    let id = '';

    // Each CLI call is a node process of its own (tsx compiling the sources): seconds apiece on a loaded machine.
    it('create, list, update, pause and resume', { timeout: 120_000 }, async () => {
      const created = await runCli(['schedules', 'create', '--name', 'cli nightly', '--cron', '0 9 * * *', '--time-zone', 'europe/paris', '--prompt', 'Good morning', '--json'], env);
      expect(created.stderr).toBe('');
      ({ id } = JSON.parse(created.stdout) as { id: string });
      expect((await runCli(['schedules', 'list'], env)).stdout).toMatch(new RegExp(`^${id}\\s+cli nightly\\s+0 9 \\* \\* \\*\\s+Europe/Paris\\s+yes\\s+2026-11-28 08:00:00Z`, 'm'));
      const updated = await runCli(['schedules', 'update', id, '--cron', '30 9 * * *', '--metadata', 'from=cli'], env);
      expect(updated.code).toBe(0);
      expect(updated.stdout).toMatch(/^next_run:\s+2026-11-27 08:30:00Z$/m);
      expect(updated.stdout).toMatch(/^metadata:\s+from=cli$/m);
      expect((await runCli(['schedules', 'pause', id], env)).stdout).toBe(`scheduled agent ${id} paused\n`);
      expect((await runCli(['schedules', 'resume', id], env)).stdout).toBe(`scheduled agent ${id} resumed; next run 2026-11-27 08:30:00Z\n`);
    });

    it('a slot fires and `schedules runs` lists its run; delete; a refused zone exits 1 naming it', { timeout: 120_000 }, async () => {
      now = Date.parse('2026-11-27T08:30:00Z');
      const [runId] = (await server.fireDueSchedules()).runs;
      const runs = await runCli(['schedules', 'runs', id], env);
      expect(runs.stdout).toContain(runId!);
      const run = await runCli(['runs', 'get', runId!], env);
      expect(run.stdout).toMatch(new RegExp(`^schedule:\\s+cli nightly \\(${id}\\), slot 2026-11-27 08:30:00Z$`, 'm'));

      expect((await runCli(['schedules', 'delete', id], env)).code).toBe(0);
      const gone = await runCli(['schedules', 'get', id], env);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^error: 404 resource_not_found: /m);
      const refused = await runCli(['schedules', 'create', '--name', 'x', '--cron', '0 9 * * *', '--time-zone', 'Mars/Olympus_Mons', '--prompt', 'p'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: 400 invalid_request: time_zone "Mars\/Olympus_Mons" is not an IANA time zone/m);
    });
  });
});

describe('agent-runs notifications against the real server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let receiver: http.Server;
  let receiverUrl = '';
  const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { startTestServer } = await import('../../server/test/support/server');
    server = await startTestServer({ env: { NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' } });
    env = { AGENT_RUNS_API_KEY: server.adminKey, AGENT_RUNS_BASE_URL: server.apiUrl };
  });
  afterAll(async () => {
    await server?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function received(count: number): Promise<void> {
    for (const deadline = Date.now() + 15_000; deliveries.length < count; await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error(`got ${deliveries.length} of ${count} deliveries`);
    }
  }

  it('create prints the secret once; a run\'s events arrive signed with it; attempts, replay, rotate, get and delete', async () => {
    const { verifyNotification } = await import('@agent-runs/sdk');
    const created = await runCli(['notifications', 'create', '--url', receiverUrl, '--event', 'run.succeeded', '--json'], env);
    expect(created.code).toBe(0);
    const subscription = JSON.parse(created.stdout) as { uid: string; secret: string };
    expect(subscription.secret).toMatch(/^whsec_/);

    const run = await runCli(['run', '--prompt', 'notify the CLI', '--wait', '--json'], env);
    const { run_id: runId } = JSON.parse(run.stdout) as { run_id: string };
    await received(1);
    const event = await verifyNotification(deliveries[0]!.body, deliveries[0]!.headers, subscription.secret);
    expect(event).toMatchObject({ type: 'run.succeeded', data: { run_id: runId, state: 'SUCCEEDED' } });

    const attempts = await runCli(['notifications', 'attempts', subscription.uid], env);
    expect(attempts.code).toBe(0);
    expect(attempts.stdout.split('\n')[1]).toMatch(new RegExp(`\\s${event.id}\\s+run.succeeded\\s+1\\s+succeeded\\s+204\\s`));

    const replayed = await runCli(['notifications', 'replay', subscription.uid, event.id], env);
    expect(replayed.stdout).toContain(`event ${event.id} queued`);
    await received(2);
    expect(deliveries[1]!.headers['webhook-id']).toBe(event.id);

    const rotated = await runCli(['notifications', 'rotate-secret', subscription.uid, '--json'], env);
    const { secret: next } = JSON.parse(rotated.stdout) as { secret: string };
    expect(next).not.toBe(subscription.secret);
    expect(rotated.stderr).toContain('shown only now');

    const shown = await runCli(['notifications', 'get', subscription.uid], env);
    expect(shown.stdout).toMatch(/^event_types:\s+run.succeeded$/m);
    expect(shown.stdout).not.toContain(next);
    expect((await runCli(['notifications', 'delete', subscription.uid], env)).stdout).toBe(`deleted subscription ${subscription.uid}\n`);
    const gone = await runCli(['notifications', 'get', subscription.uid], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: 404 resource_not_found: /m);
    // An http URL the operator did not list: the 400 names the field.
    const refused = await runCli(['notifications', 'create', '--url', 'http://hooks.example.com/', '--event', 'run.failed'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/400 invalid_request: url must be an https URL/);
  });
});

describe('agent-runs audit against the real server', () => {
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    const { startTestServer } = await import('../../server/test/support/server');
    server = await startTestServer({ engine: false });
    env = { AGENT_RUNS_API_KEY: server.adminKey, AGENT_RUNS_BASE_URL: server.apiUrl };
  });
  afterAll(() => server?.close());

  it('audit list prints what admins changed, filtered, and never a value', async () => {
    const put = (name: string, value: string) =>
      fetch(`${server.apiUrl}/secrets/${name}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      });
    expect((await put('CLI_AUDITED', 'cli-audited-value-0123456789')).status).toBe(200);
    expect((await put('CLI_OTHER', 'cli-other-value-0123456789')).status).toBe(200);

    const listed = await runCli(['audit', 'list', '--resource-type', 'secret', '--resource-id', 'CLI_AUDITED', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const { audit_events: events } = JSON.parse(listed.stdout) as { audit_events: Array<Record<string, any>> };
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation_id: 'putSecret', action: 'created', resource: { type: 'secret', id: 'CLI_AUDITED' }, changed_fields: ['value'] });

    const table = await runCli(['audit', 'list', '--limit', '1'], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^WHEN\s+ACTOR\s+ACTION\s+RESOURCE\s+OPERATION\s+ADDRESS\s+FIELDS$/);
    expect(lines[1]).toMatch(/\screated\s+secret CLI_OTHER\s+putSecret\s+\S*127\.0\.0\.1\s+value$/);
    expect(lines[2]).toMatch(/^more: pass --cursor \S+$/);
    expect(table.stdout).not.toContain('cli-other-value');

    const refused = await runCli(['audit', 'list', '--resource-type', 'nonsense'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--resource-type <type>' argument 'nonsense' is invalid/);
  });
});
