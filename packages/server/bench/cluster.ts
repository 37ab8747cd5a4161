/**
 * pnpm bench:cluster — the service as several processes on one PostgreSQL database (docs/decisions.md
 * §Several processes): 2 × ROLE=api,ingress and 2 × ROLE=worker of the compiled server
 * (bench/cluster-processes.ts, which `pnpm test:cluster` shares), the echo runner with ECHO_DELAY_MS=0.
 * Needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL (an admin URL of a PostgreSQL on this machine: its CPU is
 * read from /proc). Prints, each with the load average at the time and each BENCH_REPEATS (2) times:
 *
 * 1. throughput: BENCH_CLUSTER_RUNS (2,000) runs created 32 at a time across both APIs, created + completed
 *    per second (first create → last completed_at);
 * 2. create → CLAIMED at BENCH_CLAIM_RATES (20,50) runs/s for BENCH_CLAIM_SECONDS (20) each, open loop over
 *    both APIs: from the create's answer (here) to the CLAIMED state event's timestamp, p50/p99/max
 *    (goal p99 < 100 ms), next to QUEUED → CLAIMED (both events, the database's record) and the create's
 *    own answer time, which tell notice delivery + claim apart from the create request;
 * 3. ingress: accepted deliveries/s of unique ~1 KB bodies at BENCH_CONNECTIONS (100) for BENCH_SECONDS
 *    (10), spread over both ingress processes vs one ROLE=all process on the same database, with CPU per
 *    accepted delivery of the server processes, PostgreSQL and the load generator and what PostgreSQL's
 *    backends waited on (goal: cluster ≥ 1.5 ×); BENCH_INGRESS_WEBHOOKS (1) spreads the deliveries over
 *    that many webhooks (each has its own rate counter row);
 * 4. `GET /agent/runs` p99 at BENCH_LIST_RATE (200) req/s for BENCH_LIST_SECONDS (10) through API 1 after
 *    seeding the team to BENCH_LIST_RUNS (1,000,000) runs with seed-runs.ts, timed (goal p99 < 20 ms).
 *
 * BENCH_SERVER_ARGS adds node flags to every server process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a
 * profile per process, written when it exits). BENCH_ONLY picks parts (comma list of throughput, claim, ingress, list). The database is fresh and
 * dropped at the end, unless BENCH_CLUSTER_DATABASE names one to use and keep (seeded runs stay, so the
 * list can be measured again without seeding: `BENCH_CLUSTER_DATABASE=bench_cluster_keep BENCH_ONLY=list`;
 * it is created when missing).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/database';
import { buildServer, exitedCleanly, processGroup, type ClusterProcess } from './cluster-processes';
import { api, envInt, loadAutocannon, loadAverage, onCleanup, percentile, postgresCpuMicros, processCpuMicros, runCleanups, sortNumbers } from './common';
import { pacedLoad } from './paced-load';
import { seedRuns } from './seed-runs';
import type { ServerProcess } from './server-process';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL;
const REPEATS = envInt('BENCH_REPEATS', 2, 1);
const THROUGHPUT_RUNS = envInt('BENCH_CLUSTER_RUNS', 2000, 1);
const CREATE_CONCURRENCY = 32;
const WORKER_CONCURRENCY = envInt('BENCH_WORKER_CONCURRENCY', 32, 1);
const CLAIM_RATES = (process.env.BENCH_CLAIM_RATES || '20,50').split(',').map(Number);
const CLAIM_SECONDS = envInt('BENCH_CLAIM_SECONDS', 20, 1);
const INGRESS_SECONDS = envInt('BENCH_SECONDS', 10, 1);
const INGRESS_WARMUP_SECONDS = envInt('BENCH_WARMUP_SECONDS', 2);
const INGRESS_CONNECTIONS = envInt('BENCH_CONNECTIONS', 100, 1);
const INGRESS_WEBHOOKS = envInt('BENCH_INGRESS_WEBHOOKS', 1, 1);
const LIST_RUNS = envInt('BENCH_LIST_RUNS', 1_000_000);
const LIST_RATE = envInt('BENCH_LIST_RATE', 200, 1);
const LIST_SECONDS = envInt('BENCH_LIST_SECONDS', 10, 1);
const LIST_CONNECTIONS = 10;
const PARTS = new Set((process.env.BENCH_ONLY || 'throughput,claim,ingress,list').split(','));
const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];

const figures: string[] = [];
/** A figure line, printed now and again in the summary at the end. */
function figure(text: string): void {
  const line = `${text}  [load ${loadAverage()}]`;
  figures.push(line);
  console.log(line);
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

interface Bench {
  db: Db;
  admin: pg.Client;
  databaseName: string;
  adminKey: string;
  apis: ClusterProcess[];
  /** Every server process running (their CPU counts in the ingress figures). */
  servers(): ClusterProcess[];
  start: ReturnType<typeof processGroup>['start'];
}

/** A cluster process as the REST client of common.ts sees a bench server (its admin key). */
const asServer = (member: ClusterProcess, adminKey: string): ServerProcess => ({
  pid: member.pid,
  baseUrl: member.baseUrl,
  apiUrl: member.apiUrl,
  adminKey,
  stop: async () => void (await member.stop()),
});

async function main(): Promise<void> {
  if (!ADMIN_URL) {
    console.error('pnpm bench:cluster needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL (e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres)');
    process.exit(2);
  }
  console.log(`pnpm bench:cluster — Node ${process.version}, ${os.cpus().length} CPUs; load average ${loadAverage()}`);
  console.log(`built packages/server/dist in ${buildServer()} ms`);

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  // Without a listener, PostgreSQL ending this connection (a restart) would kill the bench and orphan its
  // server processes; with it, the next query fails and the clean-ups run.
  admin.on('error', (err) => console.error(`the admin connection to PostgreSQL failed: ${err.message}`));
  await admin.connect();
  onCleanup(() => admin.end());
  const kept = process.env.BENCH_CLUSTER_DATABASE;
  const databaseName = kept || `bench_cluster_${randomBytes(5).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error('BENCH_CLUSTER_DATABASE must be a plain lower-case PostgreSQL name');
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])).rowCount === 1;
  if (!exists) await admin.query(`CREATE DATABASE ${databaseName}`);
  if (!kept) onCleanup(async () => void (await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)));
  const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${databaseName}` }).toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'));
  onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const adminKey = `ar_live_${randomBytes(32).toString('base64url')}`;
  const group = processGroup(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
      LOG_LEVEL: 'warn',
      RUNNER: 'echo',
      ECHO_DELAY_MS: '0',
      WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      // One team (the admin key's) makes every run: the team cap would measure itself, not the workers.
      TEAM_MAX_CONCURRENT_RUNS: '1000000',
      // Raised through their settings, not bypassed: every request still passes the budget checks.
      REST_REQUESTS_PER_MINUTE: '1000000000',
      INGRESS_DELIVERIES_PER_MINUTE: '100000000',
    },
    process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean),
  );
  onCleanup(async () => {
    const exits = await group.stopAll();
    group.processes.forEach((member, i) => {
      if (!exitedCleanly(exits[i]!)) console.error(`${member.name} did not exit cleanly; its output:\n${member.output()}`);
    });
  });
  // The first process migrates and applies the admin key; the others start on the ready database.
  const api1 = await group.start('api-1', 'api,ingress');
  const [api2] = await Promise.all([group.start('api-2', 'api,ingress'), group.start('worker-1', 'worker'), group.start('worker-2', 'worker')]);
  const database = await openDatabase({ databaseUrl }, { poolSize: 2 });
  onCleanup(database.close);
  const bench: Bench = {
    db: database.db,
    admin,
    databaseName,
    adminKey,
    apis: [api1, api2!],
    servers: () => group.processes.filter((member) => member.running()),
    start: group.start,
  };
  console.log(
    `cluster on ${databaseName}: ${group.processes.map((m) => `${m.name} (${m.roles}, pid ${m.pid})`).join(', ')}; ` +
      `echo runner, ECHO_DELAY_MS=0, WORKER_CONCURRENCY=${WORKER_CONCURRENCY}\n`,
  );

  if (PARTS.has('throughput')) for (let i = 1; i <= REPEATS; i++) await throughput(bench, i);
  if (PARTS.has('claim')) for (const rate of CLAIM_RATES) for (let i = 1; i <= REPEATS; i++) await claimLatency(bench, rate, i);
  if (PARTS.has('ingress')) await ingress(bench);
  if (PARTS.has('list')) await list(bench);

  console.log('\n=== pnpm bench:cluster figures ===');
  for (const line of figures) console.log(line);
}

// ---------------------------------------------------------------------------------------------------
// 1. Runs created + completed per second

async function throughput(bench: Bench, attempt: number): Promise<void> {
  const servers = bench.apis.map((member) => asServer(member, bench.adminKey));
  const runIds: string[] = [];
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let i = next++; i < THROUGHPUT_RUNS; i = next++) {
        runIds.push((await api<{ run_id: string }>(servers[i % servers.length]!, 'POST', '/agent/runs', { prompt: 'bench' })).run_id);
      }
    }),
  );
  const createdIn = Date.now() - started;
  const deadline = Date.now() + 120_000;
  let states: Record<string, number> = {};
  for (;;) {
    const rows = await bench.db
      .selectFrom('runs')
      .select(['state', (eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.max('completed_at').as('last')])
      .where('id', 'in', runIds)
      .groupBy('state')
      .execute();
    states = Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
    const done = rows.filter((row) => TERMINAL.includes(row.state));
    if (done.reduce((sum, row) => sum + Number(row.n), 0) === THROUGHPUT_RUNS) {
      const last = Math.max(...done.map((row) => Date.parse(String(row.last))));
      const seconds = (last - started) / 1000;
      figure(
        `1. throughput #${attempt}: ${(THROUGHPUT_RUNS / seconds).toFixed(0)} runs/s created + completed (${THROUGHPUT_RUNS} runs over 2 APIs and 2 workers: ` +
          `created in ${(createdIn / 1000).toFixed(1)} s, all terminal ${seconds.toFixed(1)} s after the first create; ${JSON.stringify(states)})`,
      );
      return;
    }
    if (Date.now() > deadline) throw new Error(`${THROUGHPUT_RUNS} runs not terminal within 120 s: ${JSON.stringify(states)}`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------------
// 2. create → CLAIMED at a fixed rate

async function claimLatency(bench: Bench, rate: number, attempt: number): Promise<void> {
  const servers = bench.apis.map((member) => asServer(member, bench.adminKey));
  const total = rate * CLAIM_SECONDS;
  const answers: Array<{ runId: string; answeredAt: number; took: number }> = [];
  const requests: Array<Promise<void>> = [];
  // Open loop: request k is sent at start + k / rate whether or not earlier ones were answered.
  const start = performance.now() + 20;
  for (let k = 0; k < total; k++) {
    const wait = start + (k * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(Math.floor(wait));
    const sent = performance.now();
    requests.push(
      api<{ run_id: string }>(servers[k % servers.length]!, 'POST', '/agent/runs', { prompt: 'bench' }).then(
        (run) => void answers.push({ runId: run.run_id, answeredAt: Date.now(), took: performance.now() - sent }),
      ),
    );
  }
  await Promise.all(requests);
  const runIds = answers.map((answer) => answer.runId);
  const claimed = new Map<string, number>();
  const queued = new Map<string, number>();
  const deadline = Date.now() + 30_000;
  while (claimed.size < runIds.length) {
    if (Date.now() > deadline) throw new Error(`${runIds.length - claimed.size} of ${runIds.length} runs not CLAIMED within 30 s`);
    await sleep(200);
    const events = await bench.db
      .selectFrom('run_events')
      .select(['run_id', 'data', 'created_at'])
      .where('kind', '=', 'state')
      .where('run_id', 'in', runIds)
      .execute();
    for (const event of events) {
      const { state } = JSON.parse(event.data) as { state: string };
      if (state === 'CLAIMED') claimed.set(event.run_id, Date.parse(event.created_at));
      if (state === 'QUEUED') queued.set(event.run_id, Date.parse(event.created_at));
    }
  }
  const answerToClaimed = sortNumbers(answers.map((answer) => claimed.get(answer.runId)! - answer.answeredAt));
  const queuedToClaimed = sortNumbers(runIds.map((id) => claimed.get(id)! - queued.get(id)!));
  const createTook = sortNumbers(answers.map((answer) => answer.took));
  const spread = (xs: number[]) => `p50 ${ms(percentile(xs, 50))}, p99 ${ms(percentile(xs, 99))}, max ${ms(xs.at(-1)!)}`;
  const p99 = percentile(answerToClaimed, 99);
  figure(
    `2. create → CLAIMED at ${rate} runs/s for ${CLAIM_SECONDS} s #${attempt}: ${spread(answerToClaimed)} (goal p99 < 100 ms: ${p99 < 100 ? 'MET' : 'NOT MET'}; ` +
      `${answerToClaimed.filter((x) => x < 0).length} of ${total} claimed before their answer arrived); ` +
      `QUEUED → CLAIMED events ${spread(queuedToClaimed)}; the create request itself ${spread(createTook)}`,
  );
}

// ---------------------------------------------------------------------------------------------------
// 3. Ingress: both ingress processes vs one ROLE=all process

interface IngressResult {
  accepted: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

interface BenchWebhook {
  uid: string;
  secret: string;
}

/**
 * autocannon against the processes `targets` (connections spread round robin), each body unique (a
 * counter) and ~1 KB, the deliveries spread round robin over `webhooks`.
 */
async function ingressLoad(targets: ClusterProcess[], webhooks: BenchWebhook[], seconds: number, tag: string): Promise<IngressResult> {
  const autocannon = await loadAutocannon();
  const padding = 'x'.repeat(900);
  let n = 0;
  const result = await autocannon({
    url: targets.map((member) => member.baseUrl),
    connections: INGRESS_CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: Record<string, unknown>) => {
          const webhook = webhooks[n % webhooks.length]!;
          return {
            ...req,
            path: `/webhooks/w/${webhook.uid}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${webhook.secret}` },
            body: JSON.stringify({ event: 'bench', tag, n: n++, at: Date.now(), repository: { full_name: 'acme/app' }, labels: ['a', 'b'], padding }),
          };
        },
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

/**
 * What the bench database's client backends were doing while `during` ran, sampled every 20 ms from
 * pg_stat_activity (a wait profile: the average number of backends per state and wait event, idle ones
 * left out), and the deadlocks PostgreSQL broke meanwhile.
 */
async function waitProfile<T>(bench: Bench, during: () => Promise<T>): Promise<{ result: T; profile: string }> {
  const deadlocks = async () =>
    Number((await bench.admin.query<{ n: string }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = $1', [bench.databaseName])).rows[0]!.n);
  const deadlocksBefore = await deadlocks();
  const counts = new Map<string, number>();
  let rounds = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await bench.admin.query<{ what: string }>(
        `SELECT state || coalesce(' ' || wait_event_type || ':' || wait_event, ' on CPU') AS what
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND state <> 'idle'`,
        [bench.databaseName],
      );
      rounds++;
      for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
      await sleep(20);
    }
  })();
  try {
    const result = await during();
    const busiest = [...counts].sort((x, y) => y[1] - x[1]).slice(0, 5);
    const profile = busiest.map(([what, count]) => `${what} ${(count / rounds).toFixed(2)}`).join(', ');
    return { result, profile: `${profile || 'all idle'} (average backends); ${(await deadlocks()) - deadlocksBefore} deadlocks` };
  } finally {
    sampling = false;
    await sampler;
  }
}

async function ingress(bench: Bench): Promise<void> {
  const server = asServer(bench.apis[0]!, bench.adminKey);
  const factory = await api<{ uid: string }>(server, 'POST', '/factories', { name: `bench-${Date.now().toString(36)}`, definition_source: 'api' });
  const webhooks: BenchWebhook[] = [];
  for (let i = 0; i < INGRESS_WEBHOOKS; i++)
    webhooks.push(await api<BenchWebhook>(server, 'POST', `/factories/${factory.uid}/webhooks`, { name: `bench-${i}` }));
  const acceptedRows = async () =>
    Number(
      (
        await bench.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where(
            'webhook_id',
            'in',
            webhooks.map((webhook) => webhook.uid),
          )
          .where('label', '=', 'Accepted')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processCpuMicros(pid), 0);
  const postgresCpu = async () => [...(await postgresCpuMicros(bench.admin, bench.databaseName)).entries()];

  const measure = async (name: string, targets: ClusterProcess[]): Promise<number> => {
    const servers = bench.servers().map((member) => member.pid);
    const rowsBefore = await acceptedRows();
    const serverBefore = cpuOf(servers);
    const postgresBefore = new Map(await postgresCpu());
    const generatorBefore = process.cpuUsage();
    const { result, profile } = await waitProfile(bench, () => ingressLoad(targets, webhooks, INGRESS_SECONDS, name));
    const generator = process.cpuUsage(generatorBefore);
    const serverMicros = cpuOf(servers) - serverBefore;
    const postgresMicros = (await postgresCpu()).reduce((sum, [pid, micros]) => sum + micros - (postgresBefore.get(pid) ?? 0), 0);
    await sleep(500); // the writes of requests still in flight when the load stopped
    const rows = (await acceptedRows()) - rowsBefore;
    const rate = result.accepted / result.seconds;
    const generatorMicros = generator.user + generator.system;
    const totalMicros = serverMicros + postgresMicros + generatorMicros;
    const each = (micros: number) => `${(micros / rows).toFixed(0)} µs`;
    figure(
      `3. ingress, ${name}: ${rate.toFixed(0)} accepted/s, p50 ${result.p50} ms, p99 ${result.p99} ms (${INGRESS_CONNECTIONS} connections, ` +
        `${INGRESS_WEBHOOKS} webhook(s), ${result.seconds} s; ${result.accepted} × 202, ${rows} rows, ${result.non2xx} non-2xx, ${result.errors} errors); ` +
        `CPU per delivery: servers ${each(serverMicros)} + PostgreSQL ${each(postgresMicros)} + load generator ${each(generatorMicros)} = ` +
        `${each(totalMicros)} (${(totalMicros / 1e6 / result.seconds).toFixed(2)} of 2 CPUs); PostgreSQL backends: ${profile}`,
    );
    return rate;
  };

  const cluster = bench.apis;
  const single = await bench.start('single', 'all');
  // The same process twice: the generator takes the same path (and spends the same CPU) as against two.
  const alone = [single, single];
  try {
    if (INGRESS_WARMUP_SECONDS > 0) {
      await ingressLoad(cluster, webhooks, INGRESS_WARMUP_SECONDS, 'warm-up');
      await ingressLoad(alone, webhooks, INGRESS_WARMUP_SECONDS, 'warm-up');
    }
    for (let i = 1; i <= REPEATS; i++) {
      const both = await measure(`cluster (2 × api,ingress, load spread) #${i}`, cluster);
      const one = await measure(`one process (ROLE=all) #${i}`, alone);
      const ratio = both / one;
      figure(`3. ingress cluster / one process #${i}: ${ratio.toFixed(2)} (goal ≥ 1.5: ${ratio >= 1.5 ? 'MET' : 'NOT MET'})`);
    }
  } finally {
    await single.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// 4. GET /agent/runs at 1,000,000 runs

async function list(bench: Bench): Promise<void> {
  const team = await bench.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
  const count = async () =>
    Number(
      (
        await bench.db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('team_id', '=', team.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const missing = LIST_RUNS - (await count());
  if (missing > 0) {
    console.log(`seeding ${missing} runs…`);
    const seeded = await seedRuns(bench.db, { teamId: team.id, count: missing });
    // As bench:runs does: vacuum, analyze and checkpoint now rather than during the measurement.
    const settleStarted = performance.now();
    await bench.db.executeQuery(CompiledQuery.raw('VACUUM (ANALYZE) runs'));
    await bench.db.executeQuery(CompiledQuery.raw('CHECKPOINT'));
    figure(
      `4. seeded ${seeded.rows} runs in ${seeded.seconds.toFixed(0)} s (${(seeded.rows / seeded.seconds).toFixed(0)} rows/s), ` +
        `VACUUM (ANALYZE) + CHECKPOINT ${((performance.now() - settleStarted) / 1000).toFixed(0)} s`,
    );
  }
  const rows = await count();
  const size = (await sql<{ size: string }>`SELECT pg_size_pretty(pg_total_relation_size('runs')) AS size`.execute(bench.db)).rows[0]!.size;
  for (let i = 1; i <= REPEATS; i++) {
    const result = await pacedLoad({
      url: `${bench.apis[0]!.apiUrl}/agent/runs`,
      headers: { authorization: `Bearer ${bench.adminKey}` },
      rate: LIST_RATE,
      seconds: LIST_SECONDS,
      connections: LIST_CONNECTIONS,
    });
    figure(
      `4. GET /agent/runs at ${LIST_RATE} req/s for ${LIST_SECONDS} s, ${rows} runs in the team (runs: ${size}) through api-1 #${i}: ` +
        `p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)} (goal p99 < 20 ms: ${result.p99 < 20 ? 'MET' : 'NOT MET'}; ` +
        `${result.achieved.toFixed(0)} answers/s, ${result.non2xx} non-2xx, ${result.errors} errors, generator timer lag p99 ${ms(result.timerLagP99)})`,
    );
  }
}

void main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .then(() => runCleanups());
