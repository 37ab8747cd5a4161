/**
 * Processes of a cluster dying under it: a worker killed with SIGKILL mid-run (its runs go back to QUEUED
 * once its lease expires and the other worker executes them, never two at once), a worker stopped with
 * SIGTERM under load (it releases its claims and exits within the engine's shutdown grace), an ingress
 * killed with SIGKILL mid-burst (every 202 the sender saw has its log row and its run; no run without its
 * log row). A short lease through the settings: RUN_LEASE_SECONDS, RUN_HEARTBEAT_SECONDS,
 * RUN_SWEEP_INTERVAL_SECONDS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, processesWithEnv } from '../../packages/server/test/support/processes';
import { executionWitness, figure, startCluster, until, type Cluster, type ClusterProcess } from './support/cluster';
import { stateHistories, witnessedExecutions } from './support/runs';
import { createWebhook, deliver } from './support/webhooks';

const LEASE_SECONDS = 3;
const SWEEP_SECONDS = 1;
/** The engine lets in-flight runs finish this long on SIGTERM before it aborts and releases them (engine/worker.ts). */
const SHUTDOWN_GRACE_MS = 2000;
const sandboxed = executionWitness.runner === 'command';

describe('faults in a cluster of 2 × api,ingress and 2 × worker', () => {
  let cluster: Cluster;
  let apis: ClusterProcess[];
  const workers: ClusterProcess[] = [];
  beforeAll(async () => {
    cluster = await startCluster({
      env: {
        RUN_LEASE_SECONDS: String(LEASE_SECONDS),
        RUN_HEARTBEAT_SECONDS: '1',
        RUN_SWEEP_INTERVAL_SECONDS: String(SWEEP_SECONDS),
        WORKER_CONCURRENCY: '4',
        // The ingress burst below is about crashes, not the delivery rate.
        INGRESS_DELIVERIES_PER_MINUTE: '100000',
      },
      echoDelayMs: 4000,
    });
    const first = await cluster.start('api-1', 'api,ingress');
    const rest = await Promise.all([cluster.start('api-2', 'api,ingress'), cluster.start('worker-1', 'worker'), cluster.start('worker-2', 'worker')]);
    apis = [first, rest[0]];
    workers.push(rest[1], rest[2]);
  });
  afterAll(() => cluster?.close());

  const db = () => cluster.database.db;
  const leaseOwners = async (runIds: string[]) =>
    new Map((await db().selectFrom('runs').select(['id', 'lease_owner', 'state']).where('id', 'in', runIds).execute()).map((r) => [r.id, r]));
  const ownedBy = (owner: string | null | undefined, worker: ClusterProcess) => owner?.includes(`:${worker.pid}:`) ?? false;
  const createRuns = async (count: number, prompt: string) => {
    const api = cluster.client(apis[0]!);
    return Promise.all(Array.from({ length: count }, async () => (await api.post('/agent/runs', { prompt })).body.run_id as string));
  };
  /** Runs of `runIds` executing on `worker` (INPROGRESS, their command started). */
  const executingOn = async (runIds: string[], worker: ClusterProcess) => {
    const owners = await leaseOwners(runIds);
    const executions = await witnessedExecutions(db(), runIds);
    return runIds.filter((id) => owners.get(id)?.state === 'INPROGRESS' && ownedBy(owners.get(id)?.lease_owner, worker) && executions.get(id) === 1);
  };
  const workspaceTimes = (runId: string, kind: 'start' | 'end') =>
    cluster
      .workspaceExecutions(runId)
      .filter((line) => line.startsWith(`${kind} `))
      .map((line) => Number(BigInt(line.split(' ')[2]!) / 1_000_000n));

  it('SIGKILL of a worker mid-run: its runs go back to QUEUED once after the lease and the other worker executes them, never both at once', async () => {
    const [victim, survivor] = workers as [ClusterProcess, ClusterProcess];
    // Fewer runs than the two workers' slots: once every one executes, those on worker-1 are the ones it loses.
    const runIds = await createRuns(6, 'sleep 4');
    const executing = async () => [...(await executingOn(runIds, victim)), ...(await executingOn(runIds, survivor))];
    await until(async () => (await executing()).length === runIds.length, 10_000, 'every run executing');
    const lost = await executingOn(runIds, victim);
    expect(lost.length).toBeGreaterThan(0);
    victim.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.exited;
    // Its sandboxes die with it (bubblewrap --die-with-parent): nothing of the lost runs keeps executing.
    if (sandboxed) await until(() => lost.every((id) => processesWithEnv('AGENT_RUN_ID', id).length === 0), 1000, 'the killed worker’s commands gone');

    await until(
      async () => (await leaseOwners(runIds)).size === runIds.length && [...(await leaseOwners(runIds)).values()].every((r) => r.state === 'SUCCEEDED'),
      30_000,
      'every run SUCCEEDED',
    );
    const histories = await stateHistories(db(), runIds);
    const executions = await witnessedExecutions(db(), runIds);
    for (const id of lost) {
      const path = histories.get(id)!;
      expect(path.map((c) => c.state).join(' ')).toBe('QUEUED CLAIMED INPROGRESS QUEUED CLAIMED INPROGRESS SUCCEEDED');
      const requeued = path[3]!;
      // Back to QUEUED only once the lease the dead worker last extended ran out (heartbeat ≤ 1 s before the kill).
      expect(requeued.at).toBeGreaterThanOrEqual(killedAt + (LEASE_SECONDS - 1) * 1000 - 100);
      expect(requeued.at).toBeLessThanOrEqual(killedAt + (LEASE_SECONDS + SWEEP_SECONDS + 1) * 1000);
      expect(executions.get(id)).toBe(2);
      if (sandboxed) {
        // Two starts, one end: the first execution never finished, the second began after the first had died.
        const [first, second] = workspaceTimes(id, 'start');
        expect(first).toBeLessThan(killedAt);
        expect(second).toBeGreaterThan(killedAt);
        expect(workspaceTimes(id, 'end')).toEqual([expect.any(Number)]);
        expect(workspaceTimes(id, 'end')[0]).toBeGreaterThan(second!);
      }
    }
    for (const id of runIds.filter((id) => !lost.includes(id))) {
      expect(
        histories
          .get(id)!
          .map((c) => c.state)
          .join(' '),
      ).toBe('QUEUED CLAIMED INPROGRESS SUCCEEDED');
      expect(executions.get(id)).toBe(1);
    }
    const requeuedAfter = lost.map((id) => histories.get(id)![3]!.at - killedAt);
    figure(
      'SIGKILL of a worker',
      `${lost.length} lost run(s) re-queued ${Math.min(...requeuedAfter)}–${Math.max(...requeuedAfter)} ms after the kill (lease ${LEASE_SECONDS} s), each executed again by the other worker`,
    );
    expect(survivor.running()).toBe(true);
    // The cluster gets its second worker back for what follows.
    workers.splice(0, 1, await cluster.start('worker-3', 'worker'));
  });

  it('SIGTERM of a worker under load: it releases its in-flight claims and exits within the shutdown grace', async () => {
    const [stopping, other] = workers as [ClusterProcess, ClusterProcess];
    // As many runs as the two workers' slots: once every one executes, those on `stopping` are its claims.
    const runIds = await createRuns(8, 'sleep 5');
    const executing = async () => [...(await executingOn(runIds, stopping)), ...(await executingOn(runIds, other))];
    await until(async () => (await executing()).length === runIds.length, 10_000, 'every run executing');
    const inFlight = await executingOn(runIds, stopping);
    expect(inFlight.length).toBeGreaterThan(0);
    const signalled = Date.now();
    stopping.kill('SIGTERM');
    const exit = await stopping.exited;
    const exitedIn = Date.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    // The grace, then aborting the sandboxed commands (SIGTERM, which `sleep` obeys) and releasing the claims.
    expect(exitedIn).toBeLessThan(SHUTDOWN_GRACE_MS + 1500);
    if (sandboxed) expect(inFlight.flatMap((id) => processesWithEnv('AGENT_RUN_ID', id))).toEqual([]);
    // Released, not left to the lease: QUEUED (or claimed again by the other worker) at once.
    const afterExit = await stateHistories(db(), inFlight);
    for (const id of inFlight) {
      const states = afterExit.get(id)!.map((c) => c.state);
      expect(states.slice(0, 4).join(' ')).toBe('QUEUED CLAIMED INPROGRESS QUEUED');
      expect(afterExit.get(id)![3]!.at).toBeLessThanOrEqual(signalled + exitedIn);
    }
    await until(
      async () => [...(await leaseOwners(runIds)).values()].every((r) => r.state === 'SUCCEEDED'),
      40_000,
      'every run SUCCEEDED on the other worker',
      250,
    );
    const executions = await witnessedExecutions(db(), runIds);
    for (const id of inFlight) expect(executions.get(id)).toBe(2);
    expect(runIds.filter((id) => !inFlight.includes(id) && executions.get(id) !== 1)).toEqual([]);
    figure(
      'SIGTERM of a worker under load',
      `exited 0 in ${exitedIn} ms (grace ${SHUTDOWN_GRACE_MS} ms), ${inFlight.length} claim(s) released and executed by the other worker`,
    );
    expect(other.running()).toBe(true);
    workers.splice(0, 1, await cluster.start('worker-4', 'worker'));
  });

  it('SIGKILL of an ingress mid-burst: every 202 the sender saw has one log row and its run; no run lacks its log row', async () => {
    const [survivor, victim] = apis as [ClusterProcess, ClusterProcess];
    const webhook = await createWebhook(cluster.client(survivor), { prompt: 'sleep 0' });
    const BURST = 400;
    const answers: Array<{ status: number; deliveryId?: string }> = [];
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < BURST; i = next++) {
        const answer = await deliver(webhook, i % 2 === 0 ? survivor : victim, JSON.stringify({ n: i }));
        answers.push({ status: answer.status, ...(answer.status === 202 ? { deliveryId: answer.body.delivery_id as string } : {}) });
      }
    };
    const burst = Promise.all(Array.from({ length: 16 }, sender));
    await until(() => answers.length >= BURST / 4, 20_000, 'a quarter of the burst answered');
    victim.kill('SIGKILL');
    await burst;
    await victim.exited;

    const accepted = answers.filter((a) => a.status === 202).map((a) => a.deliveryId!);
    const cut = answers.filter((a) => a.status === 0).length;
    expect(answers.filter((a) => a.status !== 202 && a.status !== 0)).toEqual([]);
    expect(cut).toBeGreaterThan(0);
    const log = await db().selectFrom('webhook_deliveries').select(['id', 'label']).where('webhook_id', '=', webhook.uid).execute();
    const logged = new Map(log.map((row) => [row.id, row.label]));
    // Every 202 has its one row (ids are unique), Accepted.
    expect(accepted.filter((id) => logged.get(id) !== 'Accepted')).toEqual([]);
    // Every Accepted row has exactly one run and every run of the webhook's factory its row (same transaction).
    const runs = await db().selectFrom('runs').select(['id', 'delivery_id']).where('factory_id', '=', webhook.factory).execute();
    expect(runs.filter((run) => !run.delivery_id || !logged.has(run.delivery_id))).toEqual([]);
    const runsPerDelivery = new Map<string, number>();
    for (const run of runs) runsPerDelivery.set(run.delivery_id!, (runsPerDelivery.get(run.delivery_id!) ?? 0) + 1);
    expect(log.filter((row) => runsPerDelivery.get(row.id) !== 1)).toEqual([]);
    figure(
      'SIGKILL of an ingress mid-burst',
      `${accepted.length} × 202, ${cut} cut off; ${log.length} log rows (${log.length - accepted.length} committed whose answer was lost), one run each, no run without its row`,
    );
    expect(survivor.running() && isAlive(survivor.pid)).toBe(true);
  });
});
