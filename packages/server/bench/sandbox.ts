/**
 * pnpm bench:sandbox — what the bubblewrap sandbox (src/engine/sandbox, docs/sandbox.md) costs a run.
 * Prints figures; it is not a timed test and asserts nothing beyond sanity checks. Needs bubblewrap (and
 * socat for the allowlist row): without bubblewrap it says so and exits non-zero.
 *
 * 1. Start cost: `/bin/true` started BENCH_SANDBOX_STARTS (200) times each way, interleaved round by round
 *    so the three share the host's noise (the order rotates every round; BENCH_SANDBOX_WARMUP (10) rounds
 *    first, not counted):
 *    - bare: `child_process.spawn('/bin/true')` from this process, until 'close' (exit + pipes closed);
 *    - SANDBOX_NETWORK=none: `createSandbox(loadSettings(…))` in this process (as the server builds it,
 *      cgroups included where the host allows them), then per start a `forRun(…)` (not timed) and, timed,
 *      `await runSandbox.spawn({ argv: ['/bin/true'], … })` until its `exited` settles — that is cgroup
 *      create, the launcher joining it, bubblewrap (namespaces, mounts), prlimit, the command, and the
 *      clean-up (cgroup removal) the sandbox does before it reports the exit;
 *    - SANDBOX_NETWORK=allowlist (the default): the same plus the per-process egress proxy (a unix socket
 *      in this process) and the in-sandbox socat bridge with its readiness loop.
 *    p50 / p99 wall time from the spawn call to the exit, the ratio to bare, and CPU per start: this
 *    process (process.cpuUsage: spawning, the proxy, the supervision) and its reaped children
 *    (/proc/self/stat cutime + cstime: sh, bubblewrap, prlimit, socat, the command).
 * 2. Run create → first output: two real servers (bench/server-process.ts: child processes
 *    `node --import tsx packages/server/src/main.ts`, each with its own temp SQLite file and DATA_DIR, on
 *    127.0.0.1), RUNNER=command, AGENT_COMMAND='echo first-output; sleep 0.2', one with SANDBOX=bwrap
 *    (default network: allowlist) and one with SANDBOX=none, both up at once. BENCH_SANDBOX_RUNS (40)
 *    runs per server, created one at a time and alternating between the servers (after 3 warm-up runs
 *    each). Per run: `POST /api/v1/agent/runs`, then `GET /agent/runs/{id}/events` with Last-Event-ID: 0
 *    (the whole event log), read until the first assistant `content` event and on to the terminal state
 *    (every run must SUCCEED; the next run starts only then). Two figures:
 *    - client: POST sent → first content event received over SSE;
 *    - server: the content event's timestamp − the run's created_at (QUEUED event), one clock.
 *    Both include the command runner's output batching (OUTPUT_FLUSH_MS, 100 ms) for both servers alike.
 *    Also the server's CPU per run, itself and its reaped children, from /proc/<pid>/stat.
 *
 * Noise: figures are ratios against a baseline measured in the same run, interleaved; the load average and
 * the CPU the hypervisor stole (/proc/stat) over each part are printed with them. Loopback only; temp
 * directories, the servers and the cgroup directories these sandboxes leave behind are removed at the end
 * (also on Ctrl-C). Whole bench: well under 3 minutes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createSandbox, type Sandbox } from '../src/engine/sandbox';
import { loadSettings, type SandboxNetwork } from '../src/settings';
import { CLOCK_TICKS, api, envInt, loadAverage, onCleanup, percentile, procStatFields, runCleanups, runEvents, sortNumbers } from './common';
import { startServerProcess, type ServerProcess } from './server-process';

const STARTS = envInt('BENCH_SANDBOX_STARTS', 200, 1);
const WARMUP_ROUNDS = envInt('BENCH_SANDBOX_WARMUP', 10);
const RUNS = envInt('BENCH_SANDBOX_RUNS', 40, 1);
const WARMUP_RUNS = 3;
const AGENT_COMMAND = 'echo first-output; sleep 0.2';
const GOAL_START_P50_MS = 50;
const GOAL_RUN_RATIO = 1.5;
/** Upper bounds for every wait (no unbounded loops). */
const START_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 20_000;

/**
 * The sandbox keeps its sandboxes' cgroups under `agent-runs-<server pid>` (cgroups.ts) and leaves that
 * directory behind when the server ends; remove it (empty directories only: rmdir) for this process and
 * the two servers.
 */
function removeCgroupParents(pid: number): void {
  const name = `agent-runs-${pid}`;
  const own = new Map<string, string>();
  try {
    for (const line of fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, where] = line.split(':');
      if (controllers !== undefined && where !== undefined) for (const c of controllers.split(',')) own.set(c, where);
    }
  } catch {
    return;
  }
  const candidates = [
    path.join('/sys/fs/cgroup', own.get('') ?? '/', name),
    path.join('/sys/fs/cgroup/pids', own.get('pids') ?? '/', name),
    path.join('/sys/fs/cgroup/memory', own.get('memory') ?? '/', name),
  ];
  for (const dir of candidates) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // not there, or not ours to remove
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// CPU accounting and formatting

const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

/** CPU ms of a process (utime + stime) and of its reaped children (cutime + cstime), from /proc/<pid>/stat. */
function procCpuMs(pid: number | 'self'): { self: number; children: number } {
  try {
    const fields = procStatFields(pid);
    const tick = 1000 / CLOCK_TICKS;
    return { self: (fields[11]! + fields[12]!) * tick, children: (fields[13]! + fields[14]!) * tick };
  } catch {
    return { self: NaN, children: NaN };
  }
}

/** The machine's CPU time and the share the hypervisor stole since `start` (/proc/stat, first line). */
function stealSnapshot(): { total: number; steal: number } {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest times are already inside user/nice)
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return { total: NaN, steal: NaN };
  }
}
const stealPercent = (from: { total: number; steal: number }): string => {
  const to = stealSnapshot();
  return `${fmt((100 * (to.steal - from.steal)) / (to.total - from.total))} %`;
};

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  │  ');
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('──┼──'));
  for (const r of rows) console.log(line(r));
}

// ---------------------------------------------------------------------------------------------------
// Part 1: the start of a sandboxed process

interface StartSample {
  wallMs: number;
  /** This process's CPU over the start (µs precision). */
  selfCpuMs: number;
}

interface StartSeries {
  label: string;
  samples: StartSample[];
  /** Reaped children's CPU over all counted starts of this kind (10 ms ticks; the sum is what is used). */
  childCpuMs: number;
}

/** Times `fn` (spawn → exit): wall clock, this process's CPU and its reaped children's CPU. */
async function measured(fn: () => Promise<void>): Promise<StartSample & { childCpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const children0 = procCpuMs('self').children;
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, selfCpuMs: (cpu.user + cpu.system) / 1000, childCpuMs: procCpuMs('self').children - children0 };
}

function bareStart(): Promise<StartSample & { childCpuMs: number }> {
  return measured(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn('/bin/true');
        child.stdout.resume();
        child.stderr.resume();
        const timer = setTimeout(() => reject(new Error('bare /bin/true did not exit')), START_TIMEOUT_MS);
        child.once('error', reject);
        child.once('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else reject(new Error(`bare /bin/true exited with ${code}`));
        });
      }),
  );
}

/** forRun (once per execution of a run) and close are outside the measured span: spawn() → `exited`. */
async function sandboxedStart(sandbox: Sandbox, workDir: string, n: number): Promise<StartSample & { childCpuMs: number }> {
  const runSandbox = sandbox.forRun(`bench-${String(n).padStart(8, '0')}`, workDir);
  try {
    return await measured(async () => {
      const proc = await runSandbox.spawn({ argv: ['/bin/true'], env: {}, stdin: 'ignore', wallTimeMs: START_TIMEOUT_MS, limitOutput: true });
      proc.stdout.resume();
      proc.stderr.resume();
      const exit = await proc.exited;
      if (exit.code !== 0 || exit.violation || exit.startError) {
        throw new Error(`sandboxed /bin/true: ${JSON.stringify(exit)}`);
      }
    });
  } finally {
    await runSandbox.close();
  }
}

interface StartRow {
  label: string;
  p50: number;
  p99: number;
  max: number;
  ratioP50: number;
  ratioP99: number;
  selfCpuMs: number;
  childCpuMs: number;
}

async function benchStarts(root: string): Promise<{ rows: StartRow[]; notes: string[] }> {
  const log = pino({ level: 'error' }); // the sandbox's problems are printed below
  const notes: string[] = [];
  const kinds: Array<{ series: StartSeries; start: (n: number) => Promise<StartSample & { childCpuMs: number }> }> = [
    { series: { label: 'bare spawn(/bin/true)', samples: [], childCpuMs: 0 }, start: () => bareStart() },
  ];
  for (const network of ['none', 'allowlist'] as const satisfies readonly SandboxNetwork[]) {
    const dataDir = path.join(root, `starts-${network}`);
    const workDir = path.join(dataDir, 'workspace');
    fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
    const settings = loadSettings({
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      DATABASE_URL: 'sqlite::memory:',
      SANDBOX: 'bwrap',
      SANDBOX_NETWORK: network,
    });
    const sandbox = createSandbox(settings, log);
    onCleanup(() => sandbox.close());
    const { status } = sandbox;
    if (!status.available) {
      console.error(`bubblewrap sandbox unavailable: ${status.problems.join('; ')}`);
      await runCleanups();
      process.exit(1);
    }
    const socatMissing = network !== 'none' && status.problems.some((p) => p.startsWith('socat'));
    if (socatMissing) notes.push('socat is not installed: the allowlist row runs without the egress proxy and bridge');
    if (network === 'none') notes.push(`sandbox limits: ${status.limits}${status.problems.length ? ` (${status.problems.join('; ')})` : ''}`);
    kinds.push({
      series: { label: `sandboxed, SANDBOX_NETWORK=${network}${socatMissing ? ' (no socat!)' : ''}`, samples: [], childCpuMs: 0 },
      start: (n) => sandboxedStart(sandbox, workDir, n),
    });
  }

  for (let round = 0; round < WARMUP_ROUNDS + STARTS; round++) {
    const counted = round >= WARMUP_ROUNDS;
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(round + k) % kinds.length]!;
      const sample = await kind.start(round);
      if (!counted) continue;
      kind.series.samples.push({ wallMs: sample.wallMs, selfCpuMs: sample.selfCpuMs });
      kind.series.childCpuMs += sample.childCpuMs;
    }
  }

  const summaries = kinds.map(({ series }) => {
    const wall = sortNumbers(series.samples.map((s) => s.wallMs));
    const self = series.samples.reduce((a, s) => a + s.selfCpuMs, 0);
    return {
      label: series.label,
      p50: percentile(wall, 50),
      p99: percentile(wall, 99),
      max: wall.at(-1) ?? NaN,
      selfCpuMs: self / series.samples.length,
      childCpuMs: series.childCpuMs / series.samples.length,
    };
  });
  const base = summaries[0]!;
  return {
    rows: summaries.map((s) => ({ ...s, ratioP50: s.p50 / base.p50, ratioP99: s.p99 / base.p99 })),
    notes,
  };
}

// ---------------------------------------------------------------------------------------------------
// Part 2: run create → first output through the real server

interface RunSample {
  /** POST sent → first assistant content event received (client clock). */
  clientMs: number;
  /** First content event's timestamp − the run's created_at (server clock). */
  serverMs: number;
  /** Server process CPU over the whole run, itself and its reaped children (10 ms ticks). */
  serverCpuMs: number;
  childCpuMs: number;
}

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/** One run: create it, read its event stream from the start to the first output and on to the end. */
async function oneRun(server: ServerProcess, i: number): Promise<RunSample> {
  const cpu0 = procCpuMs(server.pid);
  const t0 = performance.now();
  const created = await api<{ run_id: string }>(server, 'POST', '/agent/runs', { prompt: `bench sandbox ${i}` });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`run ${created.run_id}: not finished within ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
  try {
    let createdAt: string | undefined;
    let first: { seenAt: number; timestamp: string } | undefined;
    for await (const { kind, data } of runEvents(server, created.run_id, controller.signal)) {
      if (kind === 'content') {
        const event = JSON.parse(data) as { role: string; timestamp: string; block: { type: string; text?: string } };
        if (!first && event.role === 'assistant') {
          first = { seenAt: performance.now(), timestamp: event.timestamp };
          if (event.block.type !== 'text' || !event.block.text?.includes('first-output')) {
            throw new Error(`run ${created.run_id}: unexpected first output ${JSON.stringify(event.block)}`);
          }
        }
      } else if (kind === 'state') {
        const event = JSON.parse(data) as { state: string; updated_at: string; status_message?: unknown };
        if (event.state === 'QUEUED') createdAt ??= event.updated_at;
        if (TERMINAL.has(event.state)) {
          if (event.state !== 'SUCCEEDED') throw new Error(`run ${created.run_id}: ${event.state} ${JSON.stringify(event.status_message ?? '')}`);
          if (!first || !createdAt) throw new Error(`run ${created.run_id}: SUCCEEDED without ${first ? 'a QUEUED event' : 'output'}`);
          const cpu = procCpuMs(server.pid);
          return {
            clientMs: first.seenAt - t0,
            serverMs: Date.parse(first.timestamp) - Date.parse(createdAt),
            serverCpuMs: cpu.self - cpu0.self,
            childCpuMs: cpu.children - cpu0.children,
          };
        }
      }
    }
    throw new Error(`run ${created.run_id}: stream ended before a terminal state`);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

interface RunRow {
  label: string;
  status: string;
  clientP50: number;
  clientP99: number;
  serverP50: number;
  serverP99: number;
  serverCpuMs: number;
  childCpuMs: number;
}

async function benchRuns(root: string): Promise<RunRow[]> {
  const servers: Array<{ label: string; settings: Record<string, string> }> = [
    { label: 'SANDBOX=none', settings: { SANDBOX: 'none' } },
    { label: 'SANDBOX=bwrap (network allowlist)', settings: { SANDBOX: 'bwrap' } },
  ];
  const started = await Promise.all(
    servers.map(async ({ label, settings }, n) => {
      const dataDir = path.join(root, `server-${n}`);
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const server = await startServerProcess({
        DATABASE_URL: `sqlite:${path.join(dataDir, 'agent-runs.sqlite')}`,
        DATA_DIR: dataDir,
        RUNNER: 'command',
        AGENT_COMMAND,
        ...settings,
      });
      onCleanup(async () => {
        await server.stop();
        removeCgroupParents(server.pid);
      });
      const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
        sandbox?: { mode: string; available: boolean; network: string; limits: string };
      };
      const s = ready.sandbox;
      const status = s ? `${s.mode}${s.available ? '' : ' UNAVAILABLE'}, network ${s.network}, limits ${s.limits}` : 'n/a';
      console.log(`[runs] ${label}: server up (child pid ${server.pid}, ${server.baseUrl}; sandbox ${status})`);
      return { label, status, server, samples: [] as RunSample[] };
    }),
  );
  for (let i = 0; i < WARMUP_RUNS + RUNS; i++) {
    for (let k = 0; k < started.length; k++) {
      const s = started[(i + k) % started.length]!;
      const sample = await oneRun(s.server, i);
      if (i >= WARMUP_RUNS) s.samples.push(sample);
    }
  }
  return started.map(({ label, status, samples }) => {
    const client = sortNumbers(samples.map((s) => s.clientMs));
    const server = sortNumbers(samples.map((s) => s.serverMs));
    return {
      label,
      status,
      clientP50: percentile(client, 50),
      clientP99: percentile(client, 99),
      serverP50: percentile(server, 50),
      serverP99: percentile(server, 99),
      serverCpuMs: samples.reduce((a, s) => a + s.serverCpuMs, 0) / samples.length,
      childCpuMs: samples.reduce((a, s) => a + s.childCpuMs, 0) / samples.length,
    };
  });
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const benchStart = performance.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-bench-sandbox-'));
  onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
  onCleanup(() => removeCgroupParents(process.pid));
  console.log(`bench:sandbox — node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);

  // Part 1
  let steal = stealSnapshot();
  const load1 = loadAverage();
  const starts = await benchStarts(root);
  const steal1 = stealPercent(steal);
  console.log('');
  console.log(`1. Start of /bin/true: ${STARTS} starts each, interleaved (after ${WARMUP_ROUNDS} warm-up rounds); spawn → exit`);
  console.log(`   load average before ${load1}, after ${loadAverage()}; CPU stolen by the hypervisor meanwhile ${steal1}`);
  for (const note of starts.notes) console.log(`   ${note}`);
  console.log('');
  table(
    ['', 'p50', 'p99', 'max', 'p50 ×bare', 'p99 ×bare', 'CPU/start here', 'CPU/start children'],
    starts.rows.map((r) => [
      r.label,
      `${fmt(r.p50, 2)} ms`,
      `${fmt(r.p99, 2)} ms`,
      `${fmt(r.max, 1)} ms`,
      `${fmt(r.ratioP50, 1)}×`,
      `${fmt(r.ratioP99, 1)}×`,
      `${fmt(r.selfCpuMs, 2)} ms`,
      `${fmt(r.childCpuMs, 2)} ms`,
    ]),
  );
  const sandboxedRows = starts.rows.slice(1);
  const worstP50 = Math.max(...sandboxedRows.map((r) => r.p50));
  console.log('');
  console.log(
    `sandbox start p50 < ${GOAL_START_P50_MS} ms: ${worstP50 < GOAL_START_P50_MS ? 'MET' : 'NOT MET'} (` +
      sandboxedRows.map((r) => `${r.label.replace('sandboxed, ', '')} ${fmt(r.p50, 1)} ms`).join(', ') +
      ')',
  );

  // Part 2
  console.log('');
  steal = stealSnapshot();
  const load2 = loadAverage();
  const runs = await benchRuns(root);
  const steal2 = stealPercent(steal);
  console.log('');
  console.log(
    `2. Run create → first output, RUNNER=command, AGENT_COMMAND='${AGENT_COMMAND}': ${RUNS} runs per server, alternating (after ${WARMUP_RUNS} warm-up runs each)`,
  );
  console.log('   server processes: bench/server-process.ts (node --import tsx packages/server/src/main.ts), both up at once');
  console.log(`   load average before ${load2}, after ${loadAverage()}; CPU stolen by the hypervisor meanwhile ${steal2}`);
  console.log('');
  const baseRun = runs[0]!;
  table(
    ['', 'client p50', 'client p99', 'server p50', 'server p99', 'client p50 ×', 'client p99 ×', 'server CPU/run', 'children CPU/run'],
    runs.map((r) => [
      r.label,
      `${fmt(r.clientP50)} ms`,
      `${fmt(r.clientP99)} ms`,
      `${fmt(r.serverP50)} ms`,
      `${fmt(r.serverP99)} ms`,
      `${fmt(r.clientP50 / baseRun.clientP50, 2)}×`,
      `${fmt(r.clientP99 / baseRun.clientP99, 2)}×`,
      `${fmt(r.serverCpuMs)} ms`,
      `${fmt(r.childCpuMs)} ms`,
    ]),
  );
  console.log(
    `   client: POST sent → first content event over SSE; server: content timestamp − created_at (ms resolution); p99 of ${RUNS} runs = the slowest.`,
  );
  console.log("   Both include the command runner's 100 ms output batching (OUTPUT_FLUSH_MS).");
  const sandboxed = runs[1]!;
  const ratio = sandboxed.clientP50 / baseRun.clientP50;
  const ratio99 = sandboxed.clientP99 / baseRun.clientP99;
  console.log('');
  console.log(
    `sandboxed run latency within ${GOAL_RUN_RATIO}× of unsandboxed: ${ratio <= GOAL_RUN_RATIO ? 'MET' : 'NOT MET'} ` +
      `(client p50 ${fmt(ratio, 2)}×, +${fmt(sandboxed.clientP50 - baseRun.clientP50)} ms; p99 ${fmt(ratio99, 2)}×; ` +
      `server p50 ${fmt(sandboxed.serverP50 / baseRun.serverP50, 2)}×)`,
  );
  console.log('');
  console.log(`bench:sandbox took ${fmt((performance.now() - benchStart) / 1000)} s`);
}

try {
  await main();
  await runCleanups();
} catch (err) {
  console.error(err);
  await runCleanups();
  process.exit(1);
}
