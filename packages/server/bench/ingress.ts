/**
 * pnpm bench:ingress — accepted webhook deliveries per second through the real ingress, next to a bare
 * node:http server that parses the JSON and inserts one SQLite row, in the same run (goal: ratio ≥ 0.5).
 *
 * - Real server: `startServer` with a SQLite file (WAL), the run engine on, the delivery rate limit RAISED
 *   through its setting (INGRESS_DELIVERIES_PER_MINUTE) — not bypassed — and one token webhook created
 *   through the REST API. Every request goes through route → resolve → budget → body → verify → rate limit
 *   → parse → identify → log + dedup + start runs → 202.
 * - Bare server: node:http + better-sqlite3 (WAL, same pragmas), JSON.parse, one INSERT, 202 {delivery_id}.
 *   It checkpoints the WAL as SQLite does by default, inside the commit that crosses 1000 frames; the real
 *   server checkpoints on a background thread (db/wal-checkpointer.ts), whose CPU counts in its figures
 *   (process.cpuUsage covers every thread).
 * - Load: autocannon on loopback, BENCH_SECONDS (default 10) per target and connection count after a
 *   short warm-up, every request body unique (a counter) so nothing is a Duplicate. autocannon runs in a
 *   child process so it does not share the servers' event loop.
 * - Connection counts: BENCH_CONNECTIONS, a comma list (default 10,30,100), each run against both servers.
 *   A closed loop of N connections keeps at most N requests in flight, so it measures a server's capacity
 *   only if N covers its latency (Little's law): the bare insert answers in well under a millisecond and
 *   is saturated by 10, while the ingress, whose 202 waits for a group commit, still idles between
 *   batches at 10. Each server's accepted deliveries/s is its best over the counts (its capacity); the
 *   goal is checked on the ratio of capacities, and the ratio at every count is printed too.
 *
 * Prints accepted deliveries/s, p50/p99 latency and CPU per accepted delivery (this process's CPU time
 * over the load, divided by the rows written) for both at every count, and the ratios; checks the log
 * holds exactly the accepted count. The CPU ratio is the steadier figure on a shared machine: rates move
 * with whatever else the host runs, CPU per delivery much less.
 *
 * BENCH_TRACING=compare: what OpenTelemetry traces cost (docs/decisions.md §Traces, goal < 10 % of
 * throughput): at each connection count the real server once without tracing, then once exporting every
 * delivery's span (OTLP/HTTP JSON, the default sampler) to a collector stand-in in a child process that
 * reads and drops each export; each on a fresh SQLite file, one after the other (the OpenTelemetry API is
 * process-wide). Prints both rates, CPU per delivery and the ratios.
 *
 * BENCH_DATABASE=postgres: the same real server on a fresh PostgreSQL database made through
 * TEST_POSTGRES_URL (an admin URL; dropped afterwards), no bare baseline, connection counts 10,100 unless
 * BENCH_CONNECTIONS says otherwise. CPU per accepted delivery is then the server's plus PostgreSQL's: the
 * backends connected to the bench database and the WAL writer, background writer and checkpointer (shared
 * with anyone else using that cluster), read from /proc, so PostgreSQL must run on this machine.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { CLOCK_TICKS, loadAutocannon, loadAverage, onCleanup, procStatFields, runCleanups } from './common';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const POSTGRES = process.env.BENCH_DATABASE === 'postgres';
if (process.env.BENCH_DATABASE && !['sqlite', 'postgres'].includes(process.env.BENCH_DATABASE)) throw new Error('BENCH_DATABASE must be sqlite or postgres');
const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? (POSTGRES ? '10,100' : '10,30,100')).split(',').map((n) => {
  const count = Number(n);
  if (!Number.isInteger(count) || count < 1) throw new Error('BENCH_CONNECTIONS must be a comma list of positive integers');
  return count;
});
const GOAL = 0.5;
const TRACING_COMPARE = process.env.BENCH_TRACING === 'compare';
if (process.env.BENCH_TRACING && !TRACING_COMPARE) throw new Error('BENCH_TRACING must be compare');
const TRACING_GOAL = 0.9;

interface LoadResult {
  accepted: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

// ---------------------------------------------------------------------------------------------------
// Load generator (child process): autocannon against one URL with unique bodies.

async function runLoad(url: string, headers: Record<string, string>, seconds: number, tag: string, connections: number): Promise<LoadResult> {
  const autocannon = await loadAutocannon();
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          body: JSON.stringify({ event: 'bench', tag, n: n++, at: Date.now(), repository: { full_name: 'acme/app' }, labels: ['a', 'b'] }),
        }),
      },
    ],
  });
  return {
    accepted: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

if (process.argv[2] === '--collector') {
  // The collector stand-in: reads each export and drops it, off the servers' event loop.
  const collector = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  collector.listen(0, '127.0.0.1', () => process.send!((collector.address() as AddressInfo).port));
} else if (process.argv[2] === '--load') {
  const [url, headersJson, seconds, tag, connections] = process.argv.slice(3);
  runLoad(url!, JSON.parse(headersJson!) as Record<string, string>, Number(seconds), tag!, Number(connections)).then(
    (r) => {
      process.send!(r);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

function load(url: string, headers: Record<string, string>, seconds: number, tag: string, connections = CONNECTION_COUNTS[0]!): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load', url, JSON.stringify(headers), String(seconds), tag, String(connections)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))));
  });
}

// ---------------------------------------------------------------------------------------------------
// The bare baseline: node:http, JSON.parse, one SQLite insert.

async function startBareServer(dir: string): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  const db = new BetterSqlite3(path.join(dir, 'bare.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE deliveries (id TEXT PRIMARY KEY, received_at TEXT NOT NULL, size INTEGER NOT NULL, payload BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO deliveries (id, received_at, size, payload) VALUES (?, ?, ?, ?)');
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const id = `dlv_${(++seq).toString(36).padStart(26, '0')}`;
      insert.run(id, new Date().toISOString(), body.length, body);
      const answer = `{"delivery_id":"${id}"}`;
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    count: () => (db.prepare('SELECT count(*) AS n FROM deliveries').get() as { n: number }).n,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingress-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  if (TRACING_COMPARE) return compareTracing(dir);
  const postgres = POSTGRES ? await freshPostgresDatabase() : undefined;
  const target = await startIngressTarget(dir, postgres?.url ?? `sqlite:${path.join(dir, 'server.sqlite')}`);
  const { webhook, ingressHeaders } = target;
  onCleanup(target.close);
  const bare = POSTGRES ? undefined : await startBareServer(dir);
  if (bare) onCleanup(bare.close);
  try {
    console.log(
      `pnpm bench:ingress — ${POSTGRES ? 'PostgreSQL' : 'SQLite'}, ${SECONDS} s per target and connection count (${CONNECTION_COUNTS.join(', ')}), ` +
        `loopback, Node ${process.version}, ${os.cpus().length} CPUs; load average ${loadAverage()}`,
    );
    if (WARMUP_SECONDS > 0) {
      if (bare) await load(bare.url, {}, WARMUP_SECONDS, 'warmup');
      await load(webhook.ingress_url as string, ingressHeaders, WARMUP_SECONDS, 'warmup');
    }
    if (bare && (process.env.BENCH_ONLY === 'bare' || process.env.BENCH_ONLY === 'ingress')) {
      const only = process.env.BENCH_ONLY === 'bare' ? { url: bare.url, headers: {} } : { url: webhook.ingress_url as string, headers: ingressHeaders };
      for (const connections of CONNECTION_COUNTS) {
        const r = await load(only.url, only.headers, SECONDS, process.env.BENCH_ONLY, connections);
        console.log(`${process.env.BENCH_ONLY} only, ${connections} connections: ${(r.accepted / r.seconds).toFixed(0)} accepted/s p50 ${r.p50} p99 ${r.p99}`);
      }
      return;
    }

    const countAccepted = target.countAccepted;
    const measured = (run: () => Promise<LoadResult>) => measuredLoad(run, postgres);

    if (POSTGRES) {
      for (const connections of CONNECTION_COUNTS) {
        const before = await countAccepted();
        const { result, serverMicros, databaseMicros } = await measured(() =>
          load(webhook.ingress_url as string, ingressHeaders, SECONDS, `ingress-${connections}`, connections),
        );
        const rows = (await countAccepted()) - before;
        console.log('');
        row(`webhook ingress on PostgreSQL, ×${connections}`, result, rows, serverMicros + databaseMicros);
        console.log(
          `${''.padEnd(40)} CPU each: server ${(serverMicros / rows).toFixed(0)} µs + PostgreSQL ${(databaseMicros / rows).toFixed(0)} µs; ` +
            `load average ${loadAverage()}`,
        );
        checkLog(result, rows, connections);
      }
      return;
    }

    const rates = { bare: [] as number[], ingress: [] as number[] };
    const cpu = { bare: [] as number[], ingress: [] as number[] };
    for (const connections of CONNECTION_COUNTS) {
      const bareBefore = bare!.count();
      const { result: bareResult, serverMicros: bareCpu } = await measured(() => load(bare!.url, {}, SECONDS, 'bare', connections));
      const bareRows = bare!.count() - bareBefore;
      const ingressBefore = await countAccepted();
      const { result: ingressResult, serverMicros: ingressCpu } = await measured(() =>
        load(webhook.ingress_url as string, ingressHeaders, SECONDS, `ingress-${connections}`, connections),
      );
      const ingressRows = (await countAccepted()) - ingressBefore;

      console.log('');
      for (const [target, figures] of [
        ['bare', row(`bare node:http + 1 SQLite insert, ×${connections}`, bareResult, bareRows, bareCpu)],
        ['ingress', row(`webhook ingress (token webhook), ×${connections}`, ingressResult, ingressRows, ingressCpu)],
      ] as const) {
        rates[target].push(figures.rate);
        cpu[target].push(figures.cpuEach);
      }
      console.log(`${'ratio ingress / bare'.padEnd(40)} ${(rates.ingress.at(-1)! / rates.bare.at(-1)!).toFixed(2).padStart(7)}`);
      checkLog(ingressResult, ingressRows, connections);
    }

    const capacity = (list: number[]) => {
      const best = Math.max(...list);
      return { rate: best, connections: CONNECTION_COUNTS[list.indexOf(best)]! };
    };
    const bareCapacity = capacity(rates.bare);
    const ingressCapacity = capacity(rates.ingress);
    const ratio = ingressCapacity.rate / bareCapacity.rate;
    console.log('');
    console.log(
      `capacity: bare ${bareCapacity.rate.toFixed(0)}/s (×${bareCapacity.connections}), ingress ${ingressCapacity.rate.toFixed(0)}/s (×${ingressCapacity.connections})`,
    );
    console.log(`ratio of capacities ingress / bare: ${ratio.toFixed(2)} (goal ≥ ${GOAL}) ${ratio >= GOAL ? 'MET' : 'NOT MET'}`);
    // CPU per delivery moves less with the host's load than rates do: the same ratio, from CPU time.
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const [bareCpu, ingressCpu] = [median(cpu.bare), median(cpu.ingress)];
    console.log(
      `CPU per accepted delivery (median over counts): bare ${bareCpu.toFixed(0)} µs, ingress ${ingressCpu.toFixed(0)} µs; ` +
        `ratio bare / ingress ${(bareCpu / ingressCpu).toFixed(2)}`,
    );
  } finally {
    await runCleanups();
  }
}

interface IngressTarget {
  webhook: Record<string, any>;
  ingressHeaders: Record<string, string>;
  /** Accepted rows so far, once the writes of requests still in flight when the load stopped are done. */
  countAccepted(): Promise<number>;
  close(): Promise<void>;
}

/** The real server on `databaseUrl` with one token webhook made through the REST API; `env` adds settings. */
async function startIngressTarget(dir: string, databaseUrl: string, env: Record<string, string> = {}): Promise<IngressTarget> {
  const { loadSettings } = await import('../src/settings');
  const { startServer } = await import('../src/main');
  const adminKey = `ar_live_${randomBytes(32).toString('base64url')}`;
  const settings = loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_KEY: adminKey,
    RUNNER: 'echo',
    LOG_LEVEL: 'warn',
    // Raised through the setting, not bypassed: every delivery still takes a slot in the shared counter.
    INGRESS_DELIVERIES_PER_MINUTE: '100000000',
    ...env,
  });
  const running = await startServer(settings);
  settings.publicIngressUrl = running.ingressUrl;
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${running.url}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, any>;
  };
  const factory = await api('POST', '/factories', { name: 'bench' });
  const webhook = await api('POST', `/factories/${factory.uid}/webhooks`, { name: 'bench' });
  return {
    webhook,
    ingressHeaders: { authorization: `Bearer ${webhook.secret as string}` },
    async countAccepted() {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return Number(
        (
          await running.ctx.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('webhook_id', '=', webhook.uid)
            .where('label', '=', 'Accepted')
            .executeTakeFirstOrThrow()
        ).n,
      );
    },
    close: running.close,
  };
}

function row(name: string, r: LoadResult, rows: number, cpuMicros: number): { rate: number; cpuEach: number } {
  const rate = r.accepted / r.seconds;
  const cpuEach = rows > 0 ? cpuMicros / rows : NaN;
  console.log(
    `${name.padEnd(40)} ${rate.toFixed(0).padStart(7)} accepted/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   ` +
      `${cpuEach.toFixed(0).padStart(4)} µs CPU each   (${r.accepted} accepted, ${rows} rows, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );
  return { rate, cpuEach };
}

function checkLog(r: LoadResult, rows: number, connections: number): void {
  // Requests still in flight when autocannon stops counting are logged but not counted as answered.
  if (rows < r.accepted || rows > r.accepted + connections) console.log(`WARNING: ${r.accepted} answers 202 but ${rows} Accepted rows`);
  if (r.non2xx > 0) console.log(`WARNING: ${r.non2xx} non-2xx answers from the ingress`);
}

/**
 * Runs one load and measures the CPU of this process (the servers live here, the load generator does not)
 * and, on PostgreSQL, of the database's processes meanwhile.
 */
async function measuredLoad(run: () => Promise<LoadResult>, postgres?: { cpuMicros(): Promise<Map<number, number>> }) {
  const before = process.cpuUsage();
  const databaseBefore = postgres ? await postgres.cpuMicros() : new Map<number, number>();
  const result = await run();
  const used = process.cpuUsage(before);
  let databaseMicros = 0;
  if (postgres) for (const [pid, micros] of await postgres.cpuMicros()) databaseMicros += micros - (databaseBefore.get(pid) ?? 0);
  return { result, serverMicros: used.user + used.system, databaseMicros };
}

const samplerEnv = (): Record<string, string> =>
  Object.fromEntries(['OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));

/** BENCH_TRACING=compare: the ingress without tracing, then exporting every delivery's span, at each count. */
async function compareTracing(dir: string): Promise<void> {
  const collector = fork(fileURLToPath(import.meta.url), ['--collector'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  onCleanup(() => void collector.kill());
  const collectorPort = await new Promise<number>((resolve) => collector.once('message', (port) => resolve(port as number)));
  console.log(
    `pnpm bench:ingress, BENCH_TRACING=compare — SQLite, ${SECONDS} s per target and connection count (${CONNECTION_COUNTS.join(', ')}), ` +
      `loopback, Node ${process.version}, ${os.cpus().length} CPUs; load average ${loadAverage()}`,
  );
  const modes = [
    { name: 'untraced', env: {} },
    // The sampler of the bench's own environment, if set (the cost of sampling a share of deliveries).
    { name: 'traced', env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, ...samplerEnv() } },
  ] as const;
  const rates = { untraced: [] as number[], traced: [] as number[] };
  const cpu = { untraced: [] as number[], traced: [] as number[] };
  let runs = 0;
  try {
    for (const connections of CONNECTION_COUNTS) {
      console.log('');
      for (const mode of modes) {
        // One server at a time: a traced server registers the process-wide OpenTelemetry provider.
        const target = await startIngressTarget(dir, `sqlite:${path.join(dir, `server-${++runs}.sqlite`)}`, mode.env);
        try {
          const url = target.webhook.ingress_url as string;
          if (WARMUP_SECONDS > 0) await load(url, target.ingressHeaders, WARMUP_SECONDS, 'warmup', connections);
          const before = await target.countAccepted();
          const { result, serverMicros } = await measuredLoad(() => load(url, target.ingressHeaders, SECONDS, `${mode.name}-${connections}`, connections));
          const rows = (await target.countAccepted()) - before;
          const figures = row(`webhook ingress, ${mode.name}, ×${connections}`, result, rows, serverMicros);
          rates[mode.name].push(figures.rate);
          cpu[mode.name].push(figures.cpuEach);
          checkLog(result, rows, connections);
        } finally {
          await target.close();
        }
      }
      console.log(`${'ratio traced / untraced'.padEnd(40)} ${(rates.traced.at(-1)! / rates.untraced.at(-1)!).toFixed(2).padStart(7)}`);
    }
  } finally {
    await runCleanups();
  }
  const best = (list: number[]) => Math.max(...list);
  const ratio = best(rates.traced) / best(rates.untraced);
  console.log('');
  console.log(`capacity: untraced ${best(rates.untraced).toFixed(0)}/s, traced ${best(rates.traced).toFixed(0)}/s`);
  console.log(`ratio of capacities traced / untraced: ${ratio.toFixed(2)} (goal ≥ ${TRACING_GOAL}) ${ratio >= TRACING_GOAL ? 'MET' : 'NOT MET'}`);
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  console.log(`CPU per accepted delivery (median over counts): untraced ${median(cpu.untraced).toFixed(0)} µs, traced ${median(cpu.traced).toFixed(0)} µs`);
}

/**
 * A fresh database on the PostgreSQL of TEST_POSTGRES_URL (dropped at clean-up), and the CPU time so far of
 * the processes serving it: its backends and the cluster's WAL writer, background writer and checkpointer.
 */
async function freshPostgresDatabase(): Promise<{ url: string; cpuMicros(): Promise<Map<number, number>> }> {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE=postgres needs TEST_POSTGRES_URL (an admin URL, e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres)');
  const name = `bench_ingress_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  onCleanup(() => admin.end());
  await admin.query(`CREATE DATABASE ${name}`);
  onCleanup(async () => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async cpuMicros() {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type IN ('walwriter', 'background writer', 'checkpointer')`,
        [name],
      );
      const cpu = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          const fields = procStatFields(pid);
          cpu.set(pid, ((fields[11]! + fields[12]!) * 1_000_000) / CLOCK_TICKS);
        } catch {
          // the backend ended meanwhile
        }
      }
      return cpu;
    },
  };
}
