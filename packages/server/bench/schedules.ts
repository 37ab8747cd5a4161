/**
 * pnpm bench:schedules — the CPU the scheduled agents' firing loop spends per minute of wall time with
 * 10,000 schedules (goal: < 1 s of CPU per minute), on SQLite and, with TEST_POSTGRES_URL (an admin URL),
 * on a fresh PostgreSQL database. Prints figures; asserts nothing beyond sanity checks.
 *
 * Setup (not measured): the server's own start-up (`startServer`: migrations, context) with a ManualClock
 * and no engine, then BENCH_SCHEDULES (10,000) schedules created through the service as a client's request
 * would be (`createScheduledAgent`: checked, configuration resolved), 100 per team (the default
 * SCHEDULES_PER_TEAM), with a spread of expressions and time zones (deterministic PRNG): every 5 or 15
 * minutes, hourly, every 6 hours, daily, weekdays, weekly, monthly; UTC, Paris, New York, Los Angeles,
 * Tokyo, Kolkata, Sydney, São Paulo.
 *
 * Measured: BENCH_MINUTES (30) minutes of wall time, simulated: the clock moves one second at a time
 * (SCHEDULER_INTERVAL_SECONDS' default) and the loop ticks once per second, as `startScheduler` ticks it
 * (`SchedulerLoop.tick`: a comparison, or a pass that fires the due slots and reads the nearest one).
 * The CPU of this process (user + system, `process.cpuUsage`) is summed over the ticks only; between
 * simulated minutes the runs the schedules started are marked SUCCEEDED outside the measurement (as if
 * workers had run them), so slots fire instead of being skipped as overlapping. On SQLite the database
 * works inside this process, so its CPU is in the figure; on PostgreSQL the backends' CPU (from /proc) is
 * printed beside it. Also printed: firings per minute, CPU per firing, and croner's cost of one next slot.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { createApiKey } from '../src/api-keys/service';
import { auditTrail } from '../src/audit/trail';
import { ManualClock } from '../src/clock';
import { SchedulerLoop } from '../src/engine/scheduler';
import { startServer, type RunningServer } from '../src/main';
import { nextSlotAfter } from '../src/schedules/cron';
import { createScheduledAgent } from '../src/schedules/service';
import { loadSettings } from '../src/settings';
import { createTeam } from '../src/teams/service';
import { envInt, loadAverage, mulberry32, onCleanup, postgresCpuMicros, runCleanups } from './common';

const SCHEDULES = envInt('BENCH_SCHEDULES', 10_000, 1);
const MINUTES = envInt('BENCH_MINUTES', 30, 1);
const PER_TEAM = 100;
const GOAL_CPU_SECONDS_PER_MINUTE = 1;
const START = Date.parse('2026-11-27T00:00:00Z');

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata', 'Australia/Sydney', 'America/Sao_Paulo'];

/** A spread of expressions a team would write; about 330 slots per minute over 10,000 schedules. */
function expressionFor(rand: () => number): string {
  const int = (n: number) => Math.floor(rand() * n);
  const [m, h] = [int(60), int(24)];
  const r = rand();
  if (r < 0.1) return '*/5 * * * *';
  if (r < 0.25) return `${int(15)}-59/15 * * * *`;
  if (r < 0.4) return `${m} * * * *`;
  if (r < 0.5) return `${m} */6 * * *`;
  if (r < 0.8) return `${m} ${h} * * *`;
  if (r < 0.9) return `${m} ${h} * * 1-5`;
  if (r < 0.95) return `${m} ${h} * * ${int(7)}`;
  return `${m} ${h} ${1 + int(28)} * *`;
}

interface Figures {
  dialect: string;
  setupSeconds: number;
  firings: number;
  skipped: number;
  cpuSecondsPerMinute: number;
  cpuMicrosPerFiring: number;
  idleTickMicros: number;
  postgresCpuSecondsPerMinute?: number;
}

async function bench(dialect: 'sqlite' | 'postgres', databaseUrl: string, dataDir: string, postgres?: { admin: pg.Client; name: string }): Promise<Figures> {
  const clock = new ManualClock(START);
  const settings = loadSettings({
    PORT: '0',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    RUNNER: 'echo',
    SANDBOX: 'none',
    ROLE: 'api,worker',
    LOG_LEVEL: 'error',
  });
  const running: RunningServer = await startServer(settings, { clock, engine: false, log: pino({ level: 'error' }) });
  onCleanup(() => running.close());
  const { ctx } = running;

  const rand = mulberry32(20_261_127);
  const setupStart = performance.now();
  for (let team = 0; team * PER_TEAM < SCHEDULES; team++) {
    const { id: teamId } = await createTeam(ctx.db, clock, `bench-${team}`);
    const key = await createApiKey(ctx.db, clock, { teamId, name: 'bench', role: 'admin', createdBy: 'operator' });
    const principal = { teamId, keyId: key.key_id, role: 'admin' as const, displayName: 'bench' };
    const benchAudit = auditTrail(
      clock,
      { teamId, keyId: key.key_id, keyName: 'bench', address: null, operationId: 'createScheduledAgent', changedFields: [] },
      'schedule',
      'created',
    );
    for (let i = 0; i < PER_TEAM && team * PER_TEAM + i < SCHEDULES; i++) {
      await createScheduledAgent(
        ctx,
        principal,
        {
          name: `schedule ${team}-${i}`,
          cron_schedule: expressionFor(rand),
          time_zone: ZONES[Math.floor(rand() * ZONES.length)]!,
          prompt: 'Check the dependencies and open a pull request for what is outdated.',
        },
        benchAudit,
      );
    }
  }
  const setupSeconds = (performance.now() - setupStart) / 1000;

  const loop = new SchedulerLoop(ctx);
  await loop.tick(); // the first tick reads (as at start-up); not measured
  const pgCpu = async () => (postgres ? [...(await postgresCpuMicros(postgres.admin, postgres.name)).values()].reduce((a, b) => a + b, 0) : 0);
  let cpuMicros = 0;
  let pgMicros = 0;
  let firings = 0;
  let skipped = 0;
  let idleTicks = 0;
  let idleMicros = 0;
  for (let minute = 0; minute < MINUTES; minute++) {
    const pgBefore = await pgCpu();
    for (let second = 0; second < 60; second++) {
      clock.advance(1000);
      const before = process.cpuUsage();
      const report = await loop.tick();
      const used = process.cpuUsage(before);
      const micros = used.user + used.system;
      cpuMicros += micros;
      if (report) {
        firings += report.runs.length + report.skipped + report.spawnFailed;
        skipped += report.skipped;
        if (report.errors > 0) throw new Error(`${report.errors} firings failed`);
      } else {
        idleTicks++;
        idleMicros += micros;
      }
    }
    pgMicros += (await pgCpu()) - pgBefore;
    // Outside the measurement: the workers finished the runs.
    await ctx.db.updateTable('runs').set({ state: 'SUCCEEDED' }).where('state', '=', 'QUEUED').execute();
  }
  const runs = Number(
    (
      await ctx.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (runs !== firings - skipped) throw new Error(`sanity: ${runs} runs for ${firings - skipped} firings that started one`);
  return {
    dialect,
    setupSeconds,
    firings,
    skipped,
    cpuSecondsPerMinute: cpuMicros / 1e6 / MINUTES,
    cpuMicrosPerFiring: firings > 0 ? cpuMicros / firings : NaN,
    idleTickMicros: idleTicks > 0 ? idleMicros / idleTicks : NaN,
    ...(postgres ? { postgresCpuSecondsPerMinute: pgMicros / 1e6 / MINUTES } : {}),
  };
}

/** croner's cost of one next slot (what each firing and each create computes), over the bench's spread. */
function nextSlotMicros(): number {
  const rand = mulberry32(7);
  const cases = Array.from({ length: 2000 }, () => [expressionFor(rand), ZONES[Math.floor(rand() * ZONES.length)]!] as const);
  const from = new Date(START);
  for (const [expression, zone] of cases.slice(0, 200)) nextSlotAfter(expression, zone, from); // warm-up
  const before = process.cpuUsage();
  for (const [expression, zone] of cases) nextSlotAfter(expression, zone, from);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / cases.length;
}

async function main(): Promise<void> {
  const loadStart = loadAverage();
  console.log(
    `pnpm bench:schedules — ${SCHEDULES.toLocaleString('en-US')} schedules, ${MINUTES} simulated minutes; ${os.cpus().length} CPUs, Node ${process.version}, load average ${loadStart}`,
  );
  const results: Figures[] = [];
  const only = process.env.BENCH_ONLY;
  if (only !== 'postgres') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-schedules-'));
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    results.push(await bench('sqlite', `sqlite:${path.join(dir, 'bench.sqlite')}`, dir));
    await runCleanups();
  }
  if (only !== 'sqlite') {
    const adminUrl = process.env.TEST_POSTGRES_URL;
    if (!adminUrl) console.log('PostgreSQL skipped: TEST_POSTGRES_URL is not set.');
    else {
      const name = `bench_schedules_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      onCleanup(() => admin.end());
      await admin.query(`CREATE DATABASE ${name}`);
      onCleanup(async () => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-schedules-'));
      onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
      results.push(await bench('postgres', url.toString(), dir, { admin, name }));
      await runCleanups();
    }
  }
  const next = nextSlotMicros();
  console.log('');
  for (const r of results) {
    const verdict = r.cpuSecondsPerMinute < GOAL_CPU_SECONDS_PER_MINUTE ? 'goal met' : 'GOAL NOT MET';
    console.log(
      `${r.dialect}: ${(r.firings / MINUTES).toFixed(0)} firings per minute (${r.skipped} skipped as overlapping); firing loop CPU ` +
        `${r.cpuSecondsPerMinute.toFixed(3)} s per minute of wall time (goal < ${GOAL_CPU_SECONDS_PER_MINUTE} s: ${verdict}), ` +
        `${r.cpuMicrosPerFiring.toFixed(0)} µs per firing, ${r.idleTickMicros.toFixed(1)} µs per tick with nothing due` +
        (r.postgresCpuSecondsPerMinute !== undefined ? `; PostgreSQL backends ${r.postgresCpuSecondsPerMinute.toFixed(3)} s per minute` : '') +
        ` (setup: ${r.setupSeconds.toFixed(0)} s to create the schedules)`,
    );
  }
  console.log(`croner: ${next.toFixed(1)} µs of CPU per next slot (the bench's spread of expressions and zones)`);
  console.log(`load average at start ${loadStart}, at end ${loadAverage()} (other work on the machine shares the CPUs)`);
}

main().catch(async (err: unknown) => {
  console.error(err);
  await runCleanups();
  process.exit(1);
});
