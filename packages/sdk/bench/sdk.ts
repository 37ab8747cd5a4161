/**
 * `pnpm bench:sdk`: the SDK's overhead over raw fetch against a local server.
 *
 * Two contenders fetch one run, `GET /api/v1/agent/runs/{id}`:
 * - raw fetch: `fetch(url, { headers })` with the headers the SDK puts on the wire (Accept, Authorization,
 *   User-Agent, x-retry-count: 0), a throw unless `response.ok`, and `response.json()` — the call a
 *   careful user writes by hand. It arms no timeout.
 * - sdk: `client.agent.runs.retrieve(id)` — the same request built by openapi-fetch, sent by the SDK's
 *   retry loop with its per-attempt timeout (a timer and an AbortSignal per attempt), the status mapped
 *   to errors, the JSON body parsed when the promise is awaited. All of that is the overhead measured.
 *
 * Against two local servers, in turn:
 * - the agent-runs server (the goal's figure): a child process as `pnpm start` runs it (SQLite in a temp
 *   directory, @agent-runs/server/bench/server-process), answering for a real run. The overhead a user of
 *   this service sees. CPU figures are the client's alone (the server has its own process).
 * - a zero-work stub: node:http in this process answering a fixed RunItem. The request costs almost
 *   nothing on the server side, so this shows the SDK's own cost as a share of bare HTTP on loopback — the
 *   upper bound of the relative overhead. Its CPU counts both sides (they share the process).
 *
 * Each mode (sequential, N at a time) runs ROUNDS pairs of rounds, raw and sdk back to back in an order
 * that alternates from pair to pair, so drift (JIT, GC, CPU frequency, neighbours on a shared machine)
 * hits both. A pair's overhead is raw req/s ÷ sdk req/s − 1; the figure is the median over pairs, with
 * the quartiles of the pairs as its spread. Other figures are medians over rounds.
 *
 * Options (env): BENCH_REQUESTS (default 1000 per round), BENCH_CONCURRENCY (10), BENCH_ROUNDS (20),
 * BENCH_ONLY=server|stub (one target).
 */
import fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { AgentRuns } from '../src/index';
import { VERSION } from '../src/version';
import { startServerProcess } from '@agent-runs/server/bench/server-process';

const REQUESTS = positiveInt(process.env['BENCH_REQUESTS'], 1000);
const CONCURRENCY = positiveInt(process.env['BENCH_CONCURRENCY'], 10);
const ROUNDS = positiveInt(process.env['BENCH_ROUNDS'], 20);
const WARMUP = Math.min(1000, REQUESTS);
const GOAL_PERCENT = 10;

const runItem = JSON.stringify({
  run_id: '5b0c8f0e-2a4f-4d7e-9a51-3f1f0b6f2c11',
  task_id: '5b0c8f0e-2a4f-4d7e-9a51-3f1f0b6f2c11',
  title: 'Summarise the incident',
  state: 'SUCCEEDED',
  prompt: 'Summarise the incident in three bullet points.',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:05Z',
  started_at: '2025-01-01T00:00:01Z',
  source: 'API',
  creator: { type: 'user', uid: 'usr_1', display_name: 'Ada' },
  agent_config: { name: 'summariser', model_id: 'gpt-test', max_turns: 20 },
  conversation_id: 'conv_5b0c8f0e',
});
const runPath = /^\/api\/v1\/agent\/runs\/[^/]+$/;

function handle(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  if (req.method === 'GET' && runPath.test(req.url ?? '')) {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(runItem),
      'x-request-id': 'req_bench',
    });
    res.end(runItem);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/problem+json' });
  res.end('{"type":"https://agent-runs.dev/errors/resource_not_found","status":404,"retryable":false}');
}

type Call = () => Promise<unknown>;

interface Sample {
  seconds: number;
  latencies: number[];
  /** Process CPU time (client and server, they share the process) per request, µs. */
  cpuMicros: number;
}

async function sequential(call: Call, n: number): Promise<Sample> {
  const latencies = new Array<number>(n);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    latencies[i] = performance.now() - t;
  }
  return { seconds: (performance.now() - start) / 1000, latencies, cpuMicros: cpuPerRequest(cpu, n) };
}

function cpuPerRequest(since: NodeJS.CpuUsage, n: number): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / n;
}

async function concurrent(call: Call, n: number, width: number): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const worker = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      await call();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, worker));
  return { seconds: (performance.now() - start) / 1000, latencies, cpuMicros: cpuPerRequest(cpu, n) };
}

/** The value at fraction `q` of the sorted values (nearest rank). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function rps(sample: Sample): number {
  return sample.latencies.length / sample.seconds;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
}

function figures(samples: Sample[]): Figures {
  return {
    rps: quantile(samples.map(rps), 0.5),
    p50: quantile(
      samples.map((s) => quantile(s.latencies, 0.5)),
      0.5,
    ),
    p99: quantile(
      samples.map((s) => quantile(s.latencies, 0.99)),
      0.5,
    ),
    cpu: quantile(
      samples.map((s) => s.cpuMicros),
      0.5,
    ),
  };
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const percent = (x: number) => `${x.toFixed(1)} %`;

/** A server the contenders fetch one run from. */
interface Target {
  name: string;
  /** What the CPU figures count. */
  cpu: string;
  baseURL: string;
  apiKey: string;
  runId: string;
  close(): Promise<void>;
}

async function stubTarget(): Promise<Target> {
  const server = createServer({ keepAlive: true }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: 'zero-work stub (node:http in this process, fixed RunItem)',
    cpu: 'CPU of client and stub together',
    baseURL: `http://127.0.0.1:${port}/api/v1`,
    apiKey: 'ar_live_bench',
    runId: '5b0c8f0e-2a4f-4d7e-9a51-3f1f0b6f2c11',
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function agentRunsTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sdk-'));
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${path.join(dir, 'server.sqlite')}`, DATA_DIR: dir, ECHO_DELAY_MS: '0' });
  try {
    const created = await fetch(`${server.apiUrl}/agent/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Summarise the incident in three bullet points.', title: 'Summarise the incident' }),
    });
    if (!created.ok) throw new Error(`creating the run: ${created.status} ${await created.text()}`);
    const { run_id: runId } = (await created.json()) as { run_id: string };
    return {
      name: `agent-runs server (child process pid ${server.pid}, SQLite, a real run)`,
      cpu: "the client's CPU (the server has its own process)",
      baseURL: server.apiUrl,
      apiKey: server.adminKey,
      runId,
      async close() {
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Runs every mode against `target`; prints its figures and answers its worst overhead (percent). */
async function measure(target: Target): Promise<number> {
  const { baseURL, apiKey, runId } = target;
  const headers = {
    accept: 'application/json',
    authorization: `Bearer ${apiKey}`,
    'user-agent': `AgentRuns/JS ${VERSION}`,
    'x-retry-count': '0',
  };

  const raw: Call = async () => {
    const response = await fetch(`${baseURL}/agent/runs/${runId}`, { headers });
    if (!response.ok) throw new Error(`raw fetch: ${response.status}`);
    return response.json();
  };
  const client = new AgentRuns({ apiKey, baseURL });
  const sdk: Call = () => client.agent.runs.retrieve(runId);

  const modes: Array<[string, (call: Call) => Promise<Sample>]> = [
    ['sequential', (call) => sequential(call, REQUESTS)],
    [`concurrent ×${CONCURRENCY}`, (call) => concurrent(call, REQUESTS, CONCURRENCY)],
  ];
  for (const [, run] of modes) {
    await sequential(raw, WARMUP);
    await sequential(sdk, WARMUP);
    await run(raw);
    await run(sdk);
  }

  console.log(`\n${target.name} — CPU per request: ${target.cpu}`);
  const load = os.loadavg()[0]!;
  if (load > 1) console.log(`note: load average ${load.toFixed(1)}; figures from a busy machine are noisy`);
  let worst = -Infinity;
  for (const [mode, run] of modes) {
    const rawSamples: Sample[] = [];
    const sdkSamples: Sample[] = [];
    for (let pair = 0; pair < ROUNDS; pair++) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) process.
      if (pair % 2 === 0) {
        rawSamples.push(await run(raw));
        sdkSamples.push(await run(sdk));
      } else {
        sdkSamples.push(await run(sdk));
        rawSamples.push(await run(raw));
      }
    }
    const pairOverheads = rawSamples.map((r, i) => (rps(r) / rps(sdkSamples[i]!) - 1) * 100);
    const overhead = quantile(pairOverheads, 0.5);
    worst = Math.max(worst, overhead);
    const rawFig = figures(rawSamples);
    const sdkFig = figures(sdkSamples);
    console.log(`  ${mode}`);
    for (const [name, fig] of [
      ['raw fetch', rawFig],
      ['sdk', sdkFig],
    ] as const) {
      console.log(
        `    ${name.padEnd(10)} ${fig.rps.toFixed(0).padStart(7)} req/s   p50 ${fig.p50.toFixed(3)} ms   p99 ${fig.p99.toFixed(3)} ms   CPU ${fig.cpu.toFixed(0)} µs/req`,
      );
    }
    console.log(
      `    overhead   ${percent(overhead)} throughput (pairs: quartiles ${percent(quantile(pairOverheads, 0.25))} … ${percent(quantile(pairOverheads, 0.75))}, range ${percent(Math.min(...pairOverheads))} … ${percent(Math.max(...pairOverheads))})`,
    );
    console.log(
      `               p50 +${((sdkFig.p50 - rawFig.p50) * 1000).toFixed(0)} µs   CPU +${(sdkFig.cpu - rawFig.cpu).toFixed(0)} µs/req (${percent((sdkFig.cpu / rawFig.cpu - 1) * 100)})`,
    );
  }
  return worst;
}

async function main() {
  const only = process.env['BENCH_ONLY'];
  console.log(`SDK overhead over raw fetch — ${ROUNDS} pairs of rounds × ${REQUESTS} requests per mode, loopback, Node ${process.version}`);
  const worst: Partial<Record<'server' | 'stub', number>> = {};
  for (const [key, start] of [
    ['server', agentRunsTarget],
    ['stub', stubTarget],
  ] as const) {
    if (only && only !== key) continue;
    const target = await start();
    try {
      worst[key] = await measure(target);
    } finally {
      await target.close();
    }
  }

  console.log('');
  if (worst.server !== undefined) {
    console.log(
      `worst overhead against the agent-runs server ${percent(worst.server)} — goal ≤ ${GOAL_PERCENT} %: ${worst.server <= GOAL_PERCENT ? 'met' : 'NOT met'}`,
    );
  }
  if (worst.stub !== undefined) {
    console.log(`worst overhead against the zero-work stub ${percent(worst.stub)} (the upper bound: a server that does no work)`);
  }
}

await main();
