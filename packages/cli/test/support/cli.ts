/**
 * How the CLI tests run it: most through `main(args, io)` in the test's own process (`runCli`, with captured
 * streams: no node start, no compile), a few as the built bin in a child process (`runBinary`: exit codes
 * as a shell sees them, signals, pipes). Both against a local stub of the API that records requests and
 * answers contract-shaped JSON (`StubApi`), or against the real server (`startCliTestServer`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { main } from '../../src/main';

export const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
export const bin = path.join(repoRoot, 'packages/cli/bin/agent-runs.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A stdout or stderr that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the CLI in this process with AGENT_RUNS_* taken only from `env` (never from the developer's shell
 * or the test process: `main` reads only its io's environment).
 */
export async function runCli(args: string[], env: Record<string, string> = {}, cwd = repoRoot): Promise<CliResult> {
  const stdout = capture();
  const stderr = capture();
  const code = await main(args, { stdout: stdout.stream, stderr: stderr.stream, env: { NO_COLOR: '1', ...env }, cwd });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The process's environment without AGENT_RUNS_* (a developer's own key or URL must not leak in). */
function environmentWithoutCli(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AGENT_RUNS_'))) as Record<string, string>;
}

/**
 * Runs the built CLI as users do: `node <entry> …` (default: the bin, as npm links it) in a child process,
 * with AGENT_RUNS_* taken only from `env`. `onStderr` sees stderr so far on each chunk, with the child (to
 * signal it once the command shows progress).
 */
export function runBinary(
  args: string[],
  {
    env = {},
    entry = bin,
    cwd = repoRoot,
    onStderr,
  }: {
    env?: Record<string, string>;
    entry?: string;
    cwd?: string;
    onStderr?: (stderr: string, child: ChildProcess) => void;
  } = {},
): Promise<CliResult & { signal: NodeJS.Signals | null; stdoutBytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd,
      env: { ...environmentWithoutCli(), NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdoutBytes = Buffer.concat(stdout);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr });
    });
  });
}

type TestServer = Awaited<ReturnType<typeof import('../../../server/test/support/server').startTestServer>>;
export type TestServerOptions = Parameters<typeof import('../../../server/test/support/server').startTestServer>[0];

/**
 * The real server (echo runner) for the file's tests, started once before them and closed after, with
 * the CLI's environment for its admin key. Imported lazily so the stub tests do not load the server.
 */
export function startCliTestServer(options?: TestServerOptions): { server: TestServer; env: Record<string, string> } {
  const handle = {} as { server: TestServer; env: Record<string, string> };
  beforeAll(async () => {
    const { startTestServer } = await import('../../../server/test/support/server');
    handle.server = await startTestServer(options);
    handle.env = { AGENT_RUNS_API_KEY: handle.server.adminKey, AGENT_RUNS_BASE_URL: handle.server.apiUrl };
  });
  afterAll(() => handle.server?.close());
  return handle;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface StubAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body; `text` wins when set (an event stream). */
  json?: unknown;
  text?: string;
  /** The event stream stays open after `text`, as a run's does while it is going on. */
  open?: boolean;
}

export type StubHandler = (request: RecordedRequest) => StubAnswer;

export class StubApi {
  readonly requests: RecordedRequest[] = [];
  handler: StubHandler = () => problem(404, 'resource_not_found', 'No route in this stub.');
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';
  /** The CLI's environment for this stub: its URL and a key. */
  env: Record<string, string> = {};

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
    this.env = { AGENT_RUNS_API_KEY: 'ar_live_test', AGENT_RUNS_BASE_URL: this.url };
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
      if (answer.open) res.write(answer.text);
      else res.end(answer.text);
    } else if (answer.json === undefined) {
      res.writeHead(status, answer.headers ?? {});
      res.end();
    } else {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_stub_1', ...answer.headers });
      res.end(JSON.stringify(answer.json));
    }
  }
}

/** A stub API for the file's tests: started once before them, its request log cleared before each. */
export function stubApiForFile(): StubApi {
  const stub = new StubApi();
  beforeAll(() => stub.start());
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.requests.length = 0;
  });
  return stub;
}

export function problem(status: number, code: string, detail: string): StubAnswer {
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

export const RUN_ID = '3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c';
export const FACTORY = 'fac_01hzyxwvutsrqponmlkjihgfed';
export const WEBHOOK = 'wh_01hzyxwvutsrqponmlkjihgfed';

export function runItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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

export function webhook(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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

export function sse(events: Array<{ id: number; event: string; data: unknown }>): string {
  return events.map((e) => `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

export const RUN_EVENTS = sse([
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

export const CONVERSATION = {
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
