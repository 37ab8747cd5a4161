/**
 * `pnpm bench:sdk`: the SDK's overhead over raw fetch against a local server.
 *
 * Starts a node:http server on 127.0.0.1 (random port) that answers a fixed RunItem for
 * `GET /api/v1/agent/runs/{id}`, then times the same requests made with raw `fetch` (+ `.json()`) and
 * with `client.agent.runs.retrieve()`, sequentially and N at a time. Rounds alternate between the two
 * so drift (JIT, GC, CPU frequency) hits both; each figure is the median over rounds.
 *
 * Options (env): BENCH_REQUESTS (default 2000 per round), BENCH_CONCURRENCY (10), BENCH_ROUNDS (5).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { AgentRuns } from '../src/index';

const REQUESTS = positiveInt(process.env['BENCH_REQUESTS'], 2000);
const CONCURRENCY = positiveInt(process.env['BENCH_CONCURRENCY'], 10);
const ROUNDS = positiveInt(process.env['BENCH_ROUNDS'], 5);
const WARMUP = Math.min(500, REQUESTS);
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

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
}

function figures(samples: Sample[]): Figures {
  const perRound = samples.map((s) => {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      rps: s.latencies.length / s.seconds,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      cpu: s.cpuMicros,
    };
  });
  return {
    rps: median(perRound.map((r) => r.rps)),
    p50: median(perRound.map((r) => r.p50)),
    p99: median(perRound.map((r) => r.p99)),
    cpu: median(perRound.map((r) => r.cpu)),
  };
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

async function main() {
  const server = createServer({ keepAlive: true }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}/api/v1`;
  const runId = '5b0c8f0e-2a4f-4d7e-9a51-3f1f0b6f2c11';
  const headers = { accept: 'application/json', authorization: 'Bearer ar_live_bench' };

  const raw: Call = async () => {
    const response = await fetch(`${baseURL}/agent/runs/${runId}`, { headers });
    if (!response.ok) throw new Error(`raw fetch: ${response.status}`);
    return response.json();
  };
  const client = new AgentRuns({ apiKey: 'ar_live_bench', baseURL });
  const sdk: Call = () => client.agent.runs.retrieve(runId);

  const contenders: Array<[string, Call]> = [
    ['raw fetch', raw],
    ['sdk', sdk],
  ];
  for (const [, call] of contenders) await sequential(call, WARMUP);

  const modes: Array<[string, (call: Call) => Promise<Sample>]> = [
    ['sequential', (call) => sequential(call, REQUESTS)],
    [`concurrent ×${CONCURRENCY}`, (call) => concurrent(call, REQUESTS, CONCURRENCY)],
  ];
  console.log(
    `SDK overhead over raw fetch — ${REQUESTS} requests × ${ROUNDS} rounds per mode (medians), loopback node:http in-process, Node ${process.version}`,
  );
  const load = (await import('node:os')).loadavg()[0]!;
  if (load > 1) console.log(`note: load average ${load.toFixed(1)}; figures from a busy machine are noisy`);
  let worst = -Infinity;
  for (const [mode, run] of modes) {
    const samples = new Map<string, Sample[]>(contenders.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order each round so neither side always runs on a warmer process.
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const [name, call] of order) samples.get(name)!.push(await run(call));
    }
    const rawFig = figures(samples.get('raw fetch')!);
    const sdkFig = figures(samples.get('sdk')!);
    const overhead = (rawFig.rps / sdkFig.rps - 1) * 100;
    worst = Math.max(worst, overhead);
    console.log(`\n${mode}`);
    for (const [name, fig] of [
      ['raw fetch', rawFig],
      ['sdk', sdkFig],
    ] as const) {
      console.log(
        `  ${name.padEnd(10)} ${fig.rps.toFixed(0).padStart(7)} req/s   p50 ${fig.p50.toFixed(3)} ms   p99 ${fig.p99.toFixed(3)} ms   CPU ${fig.cpu.toFixed(0)} µs/req`,
      );
    }
    console.log(
      `  overhead   ${overhead.toFixed(1)} % throughput   p50 +${((sdkFig.p50 - rawFig.p50) * 1000).toFixed(0)} µs   CPU +${(sdkFig.cpu - rawFig.cpu).toFixed(0)} µs/req (${((sdkFig.cpu / rawFig.cpu - 1) * 100).toFixed(1)} %)`,
    );
  }
  console.log(`\nworst overhead ${worst.toFixed(1)} % — goal ≤ ${GOAL_PERCENT} %: ${worst <= GOAL_PERCENT ? 'met' : 'NOT met'}`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

await main();
