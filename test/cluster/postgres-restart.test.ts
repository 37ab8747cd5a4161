/**
 * PostgreSQL going away under load and coming back (run last: it stops the database server every other test
 * uses). Needs the throwaway cluster of scripts/ci/start-postgres.sh (PGCI_DIR, default /tmp/pgci) and root,
 * to stop and start it as the user postgres; skipped, saying so, otherwise. The processes reconnect by
 * themselves; `/readyz` goes 503 and back to 200; requests meanwhile answer 503 with Retry-After — never a
 * 500, never a hang; nothing accepted is lost. The cluster is started again whatever happens.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionWitness, figure, startCluster, until, type Cluster, type ClusterProcess } from './support/cluster';
import { countByState, stateHistories, witnessedExecutions } from './support/runs';
import { createWebhook, deliver, type ClusterWebhook } from './support/webhooks';

const pgDir = process.env.PGCI_DIR ?? '/tmp/pgci';
const dataDir = path.join(pgDir, 'data');
const pgBin = fs.existsSync('/usr/lib/postgresql')
  ? fs
      .readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(a) - Number(b))
      .map((version) => path.join('/usr/lib/postgresql', version, 'bin'))
      .at(-1)
  : undefined;
const canRestart = process.getuid?.() === 0 && pgBin !== undefined && fs.existsSync(path.join(dataDir, 'postmaster.opts'));
if (!canRestart) console.log(`cluster: PostgreSQL restart skipped: needs root and the throwaway cluster in ${dataDir} (scripts/ci/start-postgres.sh)`);

/** How long the database stays down. */
const DOWN_MS = 3000;
/** Short, so that runs caught executing by the stop are recovered within the test (faults.test.ts). */
const LEASE_SECONDS = 5;
/** An answer slower than this is a hang. */
const HANG_MS = 5000;

function pgCtl(...args: string[]): void {
  const result = spawnSync('runuser', ['-u', 'postgres', '--', path.join(pgBin!, 'pg_ctl'), '-D', dataDir, '-w', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

/** The server's own options as it was started (postmaster.opts: the binary, then quoted arguments), minus -D. */
function serverOptions(): string {
  const words =
    fs
      .readFileSync(path.join(dataDir, 'postmaster.opts'), 'utf8')
      .trim()
      .match(/"[^"]*"|\S+/g) ?? [];
  const args = words.slice(1);
  const at = args.indexOf('"-D"');
  if (at >= 0) args.splice(at, 2);
  return args.join(' ');
}

const isUp = () =>
  spawnSync(path.join(pgBin!, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', new URL(process.env.TEST_POSTGRES_URL!).port || '5432']).status === 0;

interface Answer {
  what: 'create' | 'deliver' | 'readyz';
  process: string;
  status: number;
  retryAfter: string | null;
  ms: number;
  at: number;
  id?: string;
}

describe.runIf(canRestart)('PostgreSQL restarted under load', () => {
  let cluster: Cluster;
  let processes: ClusterProcess[];
  let options: string;
  beforeAll(async () => {
    options = serverOptions();
    cluster = await startCluster({
      env: { INGRESS_DELIVERIES_PER_MINUTE: '100000', RUN_LEASE_SECONDS: String(LEASE_SECONDS), RUN_HEARTBEAT_SECONDS: '1', RUN_SWEEP_INTERVAL_SECONDS: '1' },
    });
    const first = await cluster.start('api-1', 'api,ingress');
    processes = [
      first,
      ...(await Promise.all([cluster.start('api-2', 'api,ingress'), cluster.start('worker-1', 'worker'), cluster.start('worker-2', 'worker')])),
    ];
  });
  afterAll(async () => {
    // Whatever happened: the database server is up again for whoever comes next.
    if (!isUp()) pgCtl('start', '-l', path.join(pgDir, 'server.log'), '-o', options);
    await cluster?.close();
  });

  it('reconnects by itself: /readyz 503 then 200, requests 503 with Retry-After (no 500, no hang), nothing accepted lost', async () => {
    const [api1, api2] = processes as [ClusterProcess, ClusterProcess];
    const webhook: ClusterWebhook = await createWebhook(cluster.client(api1), { prompt: 'sleep 0' });
    const answers: Answer[] = [];
    let loading = true;
    const timed = async (what: Answer['what'], member: ClusterProcess, call: () => Promise<{ status: number; headers: Headers; id?: string }>) => {
      const started = Date.now();
      const res = await call();
      answers.push({
        what,
        process: member.name,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - started,
        at: started,
        ...(res.id ? { id: res.id } : {}),
      });
    };
    const creator = (member: ClusterProcess) => async () => {
      const api = cluster.client(member);
      while (loading) {
        await timed('create', member, async () => {
          const res = await api
            .request('POST', '/agent/runs', { body: { prompt: 'sleep 0' } })
            .catch(() => ({ status: 0, headers: new Headers(), body: undefined }));
          return { status: res.status, headers: res.headers, ...(res.status === 200 ? { id: res.body.run_id as string } : {}) };
        });
        await delay(20);
      }
    };
    let sequence = 0;
    const sender = (member: ClusterProcess) => async () => {
      while (loading) {
        await timed('deliver', member, async () => {
          const res = await deliver(webhook, member, JSON.stringify({ n: ++sequence }));
          return { status: res.status, headers: res.headers, ...(res.status === 202 ? { id: res.body.delivery_id as string } : {}) };
        });
        await delay(20);
      }
    };
    const prober = (member: ClusterProcess) => async () => {
      while (loading) {
        await timed('readyz', member, async () => {
          const res = await fetch(`${member.baseUrl}/readyz`, { signal: AbortSignal.timeout(HANG_MS * 2) }).catch(() => undefined);
          await res?.arrayBuffer();
          return { status: res?.status ?? 0, headers: res?.headers ?? new Headers() };
        });
        await delay(50);
      }
    };
    const load = Promise.all([...[api1, api2].flatMap((member) => [creator(member)(), sender(member)()]), ...processes.map((member) => prober(member)())]);

    await delay(1000);
    const stoppedAt = Date.now();
    pgCtl('stop', '-m', 'fast');
    try {
      await until(
        () => processes.every((member) => answers.some((a) => a.what === 'readyz' && a.process === member.name && a.at > stoppedAt && a.status === 503)),
        DOWN_MS,
        'every /readyz 503',
      );
      await delay(Math.max(0, DOWN_MS - (Date.now() - stoppedAt)));
    } finally {
      pgCtl('start', '-l', path.join(pgDir, 'server.log'), '-o', options);
    }
    const startedAt = Date.now();
    const lastReady = await until(
      () => {
        const back = processes.map((member) => answers.find((a) => a.what === 'readyz' && a.process === member.name && a.at > startedAt && a.status === 200));
        return back.every(Boolean) && Math.max(...back.map((a) => a!.at + a!.ms));
      },
      20_000,
      'every /readyz 200 again',
    );
    // Some load on the reconnected cluster, then stop.
    await delay(1000);
    loading = false;
    await load;

    for (const member of processes) expect(member.running(), `${member.name} died:\n${member.output()}`).toBe(true);
    const byStatus = (what: Answer['what']) =>
      answers.filter((a) => a.what === what).reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
    const success = { create: 200, deliver: 202, readyz: 200 } as const;
    const unexpected = answers.filter((a) => a.status !== success[a.what] && a.status !== 503);
    expect(unexpected, `answers other than success or 503: ${JSON.stringify(unexpected.slice(0, 5))}`).toEqual([]);
    expect(answers.filter((a) => a.status === 503 && !/^\d+$/.test(a.retryAfter ?? ''))).toEqual([]);
    expect(answers.filter((a) => a.ms > HANG_MS)).toEqual([]);
    expect(answers.filter((a) => a.what !== 'readyz' && a.status === 503).length).toBeGreaterThan(0);

    // Nothing accepted is lost: every created run executes (once), every 202 has its row and its run.
    const created = answers.filter((a) => a.what === 'create' && a.status === 200).map((a) => a.id!);
    const delivered = answers.filter((a) => a.what === 'deliver' && a.status === 202).map((a) => a.id!);
    const db = cluster.database.db;
    const total = created.length + delivered.length;
    await until(async () => ((await countByState(db)).SUCCEEDED ?? 0) >= total, 30_000, `${total} runs SUCCEEDED`, 250).catch(async (err: Error) => {
      throw new Error(`${err.message}; by state: ${JSON.stringify(await countByState(db))}`);
    });
    const runs = await db.selectFrom('runs').select(['id', 'state', 'delivery_id']).execute();
    const ids = new Set(runs.map((run) => run.id));
    expect(created.filter((id) => !ids.has(id))).toEqual([]);
    const log = await db.selectFrom('webhook_deliveries').select(['id', 'label']).where('webhook_id', '=', webhook.uid).execute();
    const accepted = new Set(log.filter((row) => row.label === 'Accepted').map((row) => row.id));
    expect(delivered.filter((id) => !accepted.has(id))).toEqual([]);
    expect(runs.filter((run) => run.delivery_id && !accepted.has(run.delivery_id))).toEqual([]);
    const executions = await witnessedExecutions(db);
    const histories = await stateHistories(db);
    // A run executing when the database stopped could not record its outcome: it stays leased until the lease
    // runs out, goes back to QUEUED once and executes again (at least once, docs/decisions.md §Several processes).
    const statePath = (id: string) =>
      histories
        .get(id)
        ?.map((c) => c.state)
        .join(' ');
    const twice = runs.filter(
      (run) =>
        executions.get(run.id) === 2 &&
        statePath(run.id) === 'QUEUED CLAIMED INPROGRESS QUEUED CLAIMED INPROGRESS SUCCEEDED' &&
        histories.get(run.id)![2]!.at < stoppedAt + 100,
    );
    const neither = runs.filter((run) => !twice.includes(run) && (run.state !== 'SUCCEEDED' || executions.get(run.id) !== 1));
    expect(
      neither.map((run) => ({
        ...run,
        executions: executions.get(run.id),
        states: histories
          .get(run.id)
          ?.map((c) => `${c.state}@${c.at - stoppedAt}`)
          .join(' '),
      })),
    ).toEqual([]);

    figure(
      `PostgreSQL stopped ${DOWN_MS} ms under load (${executionWitness.runner} runner)`,
      `every /readyz 200 again ${lastReady - startedAt} ms after the restart; creates ${JSON.stringify(byStatus('create'))}, deliveries ${JSON.stringify(byStatus('deliver'))}, slowest answer ${Math.max(...answers.map((a) => a.ms))} ms; ${runs.length} runs SUCCEEDED: ${runs.length - twice.length} executed once, ${twice.length} executing at the stop executed again after the lease (${LEASE_SECONDS} s)`,
    );
  });
});
