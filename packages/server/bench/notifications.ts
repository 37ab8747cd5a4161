/**
 * pnpm bench:notifications — outbound run notifications as operators run them. Prints figures; it is not
 * a timed test and asserts nothing beyond sanity checks.
 *
 * The server is the real thing (bench/server-process.ts: `node --import tsx packages/server/src/main.ts`
 * on 127.0.0.1, RUNNER=echo with ECHO_DELAY_MS=0, LOG_LEVEL=warn) on a temp SQLite file and, with
 * TEST_POSTGRES_URL set (an admin URL), again on a fresh PostgreSQL database (dropped afterwards). The
 * receiver is a node:http server in this process on 127.0.0.1 (NOTIFICATIONS_ALLOWED_HOSTS=127.0.0.1) that
 * answers 204 at once and notes when each delivery arrived.
 *
 * Phases, per database:
 * 1. state change → delivered at BENCH_RATE (100) state changes per second: runs are created open loop at
 *    BENCH_RATE / 4 per second for BENCH_SECONDS (20) s (each run makes 4 state changes: QUEUED, CLAIMED,
 *    INPROGRESS, SUCCEEDED; WORKER_CONCURRENCY=8), first with no subscription (the baseline), then with one
 *    subscription to `run.state_changed`. Latency of each event: its arrival at the receiver (this
 *    process's wall clock) − its `data.updated_at` (the state change's time on the server's clock; the same
 *    machine, millisecond resolution). Goal: p99 < 1 s. Also the server's CPU per second in both halves,
 *    and the difference per delivery: what notifying costs the server at this load.
 * 2. throughput: a backlog of BENCH_BACKLOG (3000) events — runs created through a `ROLE=api` process with
 *    the subscription (it records events but delivers none, and runs no runs), which is then stopped — is
 *    delivered by a fresh `ROLE=worker` process with WORKER_CONCURRENCY=0 (delivery workers only,
 *    NOTIFICATIONS_CONCURRENCY 16): deliveries per second from the first arrival to the last, and CPU per
 *    delivery of the worker process (also from the fifth of the backlog on, once its code is compiled), of
 *    PostgreSQL (its backends, WAL writer, checkpointer; /proc) and of this process (the receiver).
 *
 * BENCH_ONLY=sqlite|postgres picks one database; BENCH_TIMELINE=1 prints phase 1's worst latency per second
 * of the load (a stall of the host shows as one bad second, a server falling behind as a rising tail). Bounded waits; child processes, temp directories and the
 * PostgreSQL database are removed at the end, also on Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { api, envInt, loadAverage, onCleanup, percentile, postgresCpuMicros, processCpuMicros, runCleanups, sortNumbers } from './common';
import { startServerProcess, type ServerProcess } from './server-process';

const RATE = Math.max(4, envInt('BENCH_RATE', 100));
const SECONDS = Math.max(1, envInt('BENCH_SECONDS', 20));
const BACKLOG = Math.max(1, envInt('BENCH_BACKLOG', 3000));
const STATE_CHANGES_PER_RUN = 4;
const GOAL_P99_MS = 1000;
const DRAIN_TIMEOUT_MS = 120_000;

interface Arrival {
  id: string;
  type: string;
  /** Wall-clock ms (with fractions) when the delivery arrived. */
  at: number;
  updatedAt: number;
}

/** The receiver: answers 204, keeps the arrivals; `expect(n)` resolves once n have arrived. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  let hooks = new Map<number, () => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data: { updated_at: string } };
      hooks.get(arrivals.length + 1)?.();
      arrivals.push({ id: event.id, type: event.type, at, updatedAt: Date.parse(event.data.updated_at) });
      if (waiter && arrivals.length >= waiter.count) waiter.resolve();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    reset() {
      arrivals.length = 0;
      hooks = new Map();
    },
    /** Calls `fn` as the `n`-th delivery arrives (before it is counted). */
    onArrival(n: number, fn: () => void) {
      hooks.set(n, fn);
    },
    async expect(count: number): Promise<boolean> {
      if (arrivals.length >= count) return true;
      const reached = new Promise<void>((resolve) => (waiter = { count, resolve }));
      const timedOut = delay(DRAIN_TIMEOUT_MS).then(() => false);
      return Promise.race([reached.then(() => true), timedOut]);
    },
  };
}

interface Target {
  name: 'sqlite' | 'postgres';
  settings: Record<string, string>;
  /** PostgreSQL only: an admin connection and the database's name, for CPU readings. */
  postgres?: { admin: pg.Client; database: string };
}

async function sqliteTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notifications-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { name: 'sqlite', settings: { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, DATA_DIR: dir } };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  const database = `bench_notifications_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  onCleanup(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notifications-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    name: 'postgres',
    settings: { DATABASE_URL: url.toString(), DATA_DIR: dir, SECRETS_KEY: randomBytes(32).toString('base64') },
    postgres: { admin, database },
  };
}

async function start(target: Target, extra: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    ...target.settings,
    SANDBOX: 'none',
    ECHO_DELAY_MS: '0',
    NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1',
    ...extra,
  });
  onCleanup(() => server.stop());
  return server;
}

const subscribe = (server: ServerProcess, url: string) =>
  api<{ uid: string }>(server, 'POST', '/notifications/subscriptions', { url, event_types: ['run.state_changed'] });

/** Creates runs open loop at `perSecond` for `seconds`; answers how many were created. */
async function pacedRuns(server: ServerProcess, perSecond: number, seconds: number): Promise<number> {
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  const pending: Array<Promise<unknown>> = [];
  for (let k = 0; k < total; k++) {
    const wait = started + (k * 1000) / perSecond - performance.now();
    if (wait > 1) await delay(wait);
    pending.push(api(server, 'POST', '/agent/runs', { prompt: `bench ${k}` }));
  }
  await Promise.all(pending);
  return total;
}

const cpuOf = (server: ServerProcess): number => processCpuMicros(server.pid);

/** Waits (bounded) until no run is left unfinished, so one half's runs do not spill into the next. */
async function drainRuns(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  const unfinished = '/agent/runs?limit=1&state=QUEUED&state=PENDING&state=CLAIMED&state=INPROGRESS';
  while ((await api<{ runs: unknown[] }>(server, 'GET', unfinished)).runs.length > 0) {
    if (Date.now() > deadline) throw new Error('runs did not finish');
    await delay(100);
  }
}
const fmt = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function latencyPhase(target: Target, receiver: Awaited<ReturnType<typeof startReceiver>>): Promise<void> {
  const runsPerSecond = RATE / STATE_CHANGES_PER_RUN;
  // One team makes every run: the team cap would pace the runs, not the notifications.
  const server = await start(target, { WORKER_CONCURRENCY: '8', TEAM_MAX_CONCURRENT_RUNS: '8' });
  // Warm-up: compile paths, fill pools.
  await pacedRuns(server, runsPerSecond, 2);
  await delay(1000);

  const baselineCpu = cpuOf(server);
  const baselineStart = performance.now();
  await pacedRuns(server, runsPerSecond, SECONDS);
  await drainRuns(server);
  const baselineCpuPerSecond = (cpuOf(server) - baselineCpu) / ((performance.now() - baselineStart) / 1000);

  const subscription = await subscribe(server, receiver.url);
  receiver.reset();
  const withCpu = cpuOf(server);
  const withStart = performance.now();
  const runs = await pacedRuns(server, runsPerSecond, SECONDS);
  const expected = runs * STATE_CHANGES_PER_RUN;
  const complete = await receiver.expect(expected);
  await drainRuns(server);
  const withCpuPerSecond = (cpuOf(server) - withCpu) / ((performance.now() - withStart) / 1000);
  // The throughput phase records its own backlog on this database: this subscription must not double it.
  const deleted = await fetch(`${server.apiUrl}/notifications/subscriptions/${subscription.uid}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${server.adminKey}` },
  });
  if (deleted.status !== 204) throw new Error(`DELETE subscription → ${deleted.status}`);
  await server.stop();

  const latencies = sortNumbers(receiver.arrivals.map((a) => a.at - a.updatedAt));
  const p99 = percentile(latencies, 99);
  const extraPerDelivery = ((withCpuPerSecond - baselineCpuPerSecond) * ((performance.now() - withStart) / 1000)) / receiver.arrivals.length;
  console.log(
    `\n[${target.name}] state change → delivered at ${RATE} state changes/s (${fmt(runsPerSecond, 1)} runs/s for ${SECONDS} s; load average ${loadAverage()})`,
  );
  const distinct = new Set(receiver.arrivals.map((a) => a.id)).size;
  console.log(
    `  delivered ${distinct} of ${expected} events${complete ? '' : ' (TIMED OUT waiting for the rest)'}, ${receiver.arrivals.length - distinct} twice (at least once)`,
  );
  console.log(
    `  latency p50 ${fmt(percentile(latencies, 50))} ms, p90 ${fmt(percentile(latencies, 90))} ms, p99 ${fmt(p99)} ms, max ${fmt(latencies.at(-1) ?? NaN)} ms — ` +
      `goal p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS && complete ? 'MET' : 'NOT MET'}`,
  );
  if (process.env.BENCH_TIMELINE) {
    const first = Math.min(...receiver.arrivals.map((a) => a.updatedAt));
    const bySecond = new Map<number, number[]>();
    for (const a of receiver.arrivals)
      bySecond.set(Math.floor((a.updatedAt - first) / 1000), [...(bySecond.get(Math.floor((a.updatedAt - first) / 1000)) ?? []), a.at - a.updatedAt]);
    for (const [second, values] of [...bySecond].sort((x, y) => x[0] - y[0]))
      console.log(`    s${second}: n ${values.length} max ${fmt(Math.max(...values))} ms`);
  }
  console.log(
    `  server CPU: ${fmt(baselineCpuPerSecond / 1000)} ms/s without a subscription, ${fmt(withCpuPerSecond / 1000)} ms/s with one (ratio ${fmt(withCpuPerSecond / baselineCpuPerSecond, 2)}); ≈ ${fmt(extraPerDelivery)} µs more per delivery`,
  );
}

async function throughputPhase(target: Target, receiver: Awaited<ReturnType<typeof startReceiver>>): Promise<void> {
  // Record the backlog: an API-only process (no run engine, no delivery workers).
  const writer = await start(target, { ROLE: 'api', WORKER_CONCURRENCY: '0' });
  await subscribe(writer, receiver.url);
  const recordStart = performance.now();
  for (let done = 0; done < BACKLOG;) {
    const batch = Math.min(32, BACKLOG - done);
    await Promise.all(Array.from({ length: batch }, (_, i) => api(writer, 'POST', '/agent/runs', { prompt: `backlog ${done + i}` })));
    done += batch;
  }
  const recordSeconds = (performance.now() - recordStart) / 1000;
  await writer.stop();

  receiver.reset();
  // CPU from the first arrival, and from the WARM-th on (the fresh process's code is compiled by then).
  const warm = Math.floor(BACKLOG / 5);
  let firstCpu = 0;
  let warmCpu = 0;
  let firstPg = new Map<number, number>();
  let firstReceiver = process.cpuUsage();
  const deliverer = await start(target, { ROLE: 'worker', WORKER_CONCURRENCY: '0' });
  receiver.onArrival(1, () => {
    firstCpu = cpuOf(deliverer);
    firstReceiver = process.cpuUsage();
  });
  receiver.onArrival(warm + 1, () => {
    warmCpu = cpuOf(deliverer);
  });
  if (target.postgres) firstPg = await postgresCpuMicros(target.postgres.admin, target.postgres.database);
  const complete = await receiver.expect(BACKLOG);
  const lastCpu = cpuOf(deliverer);
  const receiverCpu = process.cpuUsage(firstReceiver);
  const lastPg = target.postgres ? await postgresCpuMicros(target.postgres.admin, target.postgres.database) : new Map<number, number>();
  await deliverer.stop();

  const arrivals = receiver.arrivals;
  const seconds = (arrivals.at(-1)!.at - arrivals[0]!.at) / 1000;
  const deliveries = arrivals.length - 1;
  let pgMicros = 0;
  for (const [pid, cpu] of lastPg) pgMicros += cpu - (firstPg.get(pid) ?? 0);
  console.log(
    `\n[${target.name}] throughput: a backlog of ${BACKLOG} events (recorded at ${fmt(BACKLOG / recordSeconds)} runs/s by an API process) delivered by a worker process`,
  );
  console.log(`  delivered ${arrivals.length}${complete ? '' : ' (TIMED OUT)'} in ${fmt(seconds, 2)} s: ${fmt(deliveries / seconds)} deliveries/s`);
  console.log(
    `  CPU per delivery: worker ${fmt((lastCpu - firstCpu) / deliveries)} µs (${fmt((lastCpu - warmCpu) / (arrivals.length - 1 - warm))} µs after the first ${warm})` +
      (target.postgres ? `, PostgreSQL ${fmt(pgMicros / deliveries)} µs` : '') +
      `, receiver (this process) ${fmt((receiverCpu.user + receiverCpu.system) / deliveries)} µs`,
  );
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  const targets: Array<() => Promise<Target>> = [];
  if (!only || only === 'sqlite') targets.push(sqliteTarget);
  if ((!only || only === 'postgres') && process.env.TEST_POSTGRES_URL) targets.push(() => postgresTarget(process.env.TEST_POSTGRES_URL!));
  if (!process.env.TEST_POSTGRES_URL && only !== 'sqlite') console.log('PostgreSQL skipped: TEST_POSTGRES_URL is not set.');
  console.log(`bench:notifications — ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  const receiver = await startReceiver();
  for (const make of targets) {
    const target = await make();
    await latencyPhase(target, receiver);
    receiver.reset();
    await throughputPhase(target, receiver);
    receiver.reset();
  }
}

void main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .then(() => runCleanups());
