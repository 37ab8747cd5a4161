/**
 * `pnpm bench:artifacts`: what artifacts cost (docs/decisions.md §Artifacts), on SQLite and, with
 * TEST_POSTGRES_URL, PostgreSQL: BENCH_SEED_RUNS (100,000) seeded runs, every 100th with a FILE artifact of
 * 1 KiB, a SCREENSHOT and a PULL_REQUEST. Each operation is called BENCH_CALLS (200) times one after another
 * in this process (the repository and service functions the handlers call, no HTTP), after 20 warm-up calls;
 * printed: the median and p90 in ms and the median as a ratio of the baseline, the default runs page,
 * measured in the same run. Medians of sequential calls, not an open-loop latency: on a shared machine a
 * fixed request rate measures the neighbours' load more than these queries.
 *
 *   list            listRunRows, limit 20, updated_at desc   (the baseline; its SQL selects has_artifacts)
 *   list FILE       … artifact_type=FILE                      (1 % of runs match)
 *   list PLAN       … artifact_type=PLAN                      (no run matches: the worst case)
 *   getArtifact     getArtifact (signs a download URL)
 *   content         readArtifactContent (verifies the token, reads 1 KiB)
 *   publish link    publishArtifact of a PULL_REQUEST under the run's lock (one transaction)
 *   publish 64 KiB  publishArtifact of a 64 KiB FILE
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { getArtifact, publishArtifact, readArtifactContent } from '../src/artifacts/service';
import { systemClock } from '../src/clock';
import { SecretBox } from '../src/crypto/secret-box';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { listRunRows } from '../src/runs/repository';
import { RunSignals } from '../src/runs/signals';
import { loadSettings } from '../src/settings';
import { envInt, loadAverage, onCleanup, percentile, runCleanups, sortNumbers } from './common';
import { seedRuns } from './seed-runs';

const SEED_RUNS = envInt('BENCH_SEED_RUNS', 100_000, 1000);
const CALLS = envInt('BENCH_CALLS', 200, 10);
const WARMUP_CALLS = 20;
const TEAM = 'team_benchartifacts';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

interface Figure {
  name: string;
  median: number;
  p90: number;
}

async function measure(name: string, call: () => Promise<unknown>): Promise<Figure> {
  for (let i = 0; i < WARMUP_CALLS; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  const sorted = sortNumbers(times);
  return { name, median: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

async function benchDatabase(databaseUrl: string, dataDir: string): Promise<Figure[]> {
  const db = await openDatabase({ databaseUrl }, { poolSize: 2 });
  onCleanup(() => db.close());
  await migrateToLatest(db.db);
  const now = new Date().toISOString();
  await db.db.insertInto('teams').values({ id: TEAM, name: 'bench', created_at: now }).execute();
  const seeded = await seedRuns(db.db, { teamId: TEAM, count: SEED_RUNS });
  console.log(`[${db.dialect}] seeded ${seeded.rows} runs in ${seeded.seconds.toFixed(1)} s`);

  const runIds = (await db.db.selectFrom('runs').select('id').where('team_id', '=', TEAM).orderBy('id').execute()).map((r) => r.id);
  let fileUid = '';
  for (let i = 0; i < runIds.length; i += 100) {
    const file = randomUUID();
    fileUid ||= file;
    const rows = [
      {
        id: file,
        artifact_type: 'FILE' as const,
        data: { filepath: 'report.md', filename: 'report.md', mime_type: 'text/markdown' },
        content: Buffer.alloc(1024, 0x61),
      },
      { id: randomUUID(), artifact_type: 'SCREENSHOT' as const, data: { filepath: 'a.png', filename: 'a.png', mime_type: 'image/png' }, content: PNG },
      { id: randomUUID(), artifact_type: 'PULL_REQUEST' as const, data: { url: `https://git.example.com/p/${i}`, branch: 'b' }, content: null },
    ];
    await db.db
      .insertInto('run_artifacts')
      .values(
        rows.map((r, n) => ({
          ...r,
          run_id: runIds[i]!,
          team_id: TEAM,
          position: n + 1,
          data: JSON.stringify(r.data),
          size: r.content?.length ?? 0,
          source_path: null,
          content_sha256: null,
          external_url: null,
          created_at: now,
        })),
      )
      .execute();
  }
  // The run that publishes: executing under a lease of this bench.
  const publisher = { id: runIds[1]!, team_id: TEAM };
  await db.db.updateTable('runs').set({ state: 'INPROGRESS', lease_owner: 'bench' }).where('id', '=', publisher.id).execute();
  // As bench:runs does: measured on the steady state, not next to autovacuum waking up.
  if (db.dialect === 'postgres') await db.db.executeQuery(CompiledQuery.raw('VACUUM (ANALYZE)'));

  const key = randomBytes(32);
  const settings = loadSettings({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SECRETS_KEY: key.toString('base64'),
    ARTIFACTS_PER_RUN: '1000000',
    ARTIFACTS_MAX_BYTES_PER_RUN: String(2 ** 40),
  });
  const ctx = { db: db.db, clock: systemClock, settings, secrets: new SecretBox(key), runSignals: new RunSignals() };
  const token = new URL(((await getArtifact(ctx, TEAM, fileUid)) as { data: { download_url: string } }).data.download_url).searchParams.get('token')!;
  const page = { sortBy: 'updated_at' as const, order: 'desc' as const, limit: 20 };
  const big = randomBytes(64 * 1024);

  const figures = [
    await measure('list', () => listRunRows(db.db, TEAM, {}, page)),
    await measure('list FILE', () => listRunRows(db.db, TEAM, { artifactType: 'FILE' }, page)),
    await measure('list PLAN', () => listRunRows(db.db, TEAM, { artifactType: 'PLAN' }, page)),
    await measure('getArtifact', () => getArtifact(ctx, TEAM, fileUid)),
    await measure('content', () => readArtifactContent(ctx, fileUid, token)),
    await measure('publish link', () =>
      publishArtifact(ctx, publisher, 'bench', { artifact_type: 'PULL_REQUEST', url: 'https://git.example.com/p/1', branch: 'b' }),
    ),
    await measure('publish 64 KiB', () => publishArtifact(ctx, publisher, 'bench', { artifact_type: 'FILE', filepath: 'big.bin', content: big })),
  ];
  console.log(`[${db.dialect}] measured; load average ${loadAverage()}`);
  await db.close();
  return figures;
}

function report(label: string, figures: Figure[]): void {
  const base = figures[0]!.median;
  console.log(`\n${label}: ${SEED_RUNS} runs (1 % with artifacts), ${CALLS} sequential calls each`);
  for (const f of figures) {
    console.log(
      `  ${f.name.padEnd(15)} median ${f.median.toFixed(2).padStart(7)} ms  p90 ${f.p90.toFixed(2).padStart(7)} ms  median / list ${(f.median / base).toFixed(2)}`,
    );
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-artifacts-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const results: Array<[string, Figure[]]> = [['sqlite', await benchDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`, dir)]];
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (adminUrl) {
    const name = `bench_artifacts_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    onCleanup(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    results.push(['postgres', await benchDatabase(url.toString(), dir)]);
  }
  for (const [label, figures] of results) report(label, figures);
}

void main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .then(() => runCleanups());
