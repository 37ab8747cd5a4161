/**
 * Two `ROLE=api,ingress` and two `ROLE=worker` processes of the compiled server on one PostgreSQL database:
 * CLUSTER_RUNS (default 2,000) runs created concurrently across both APIs each execute exactly once and all
 * end within CLUSTER_RUNS_DEADLINE_SECONDS; a cancel sent to one API process stops a run executing on the
 * other worker within a second (the run notice, docs/decisions.md §Several processes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWithEnv } from '../../packages/server/test/support/processes';
import { executionWitness, figure, quantile, startCluster, until, type Cluster, type ClusterProcess } from './support/cluster';
import { countByState, stateHistories, witnessedExecutions } from './support/runs';

const RUNS = Number(process.env.CLUSTER_RUNS ?? 2000);
const DEADLINE_MS = Number(process.env.CLUSTER_RUNS_DEADLINE_SECONDS ?? 120) * 1000;
/** Create requests in flight at once, spread over both API processes. */
const CREATE_CONCURRENCY = 32;

describe('2 × ROLE=api,ingress and 2 × ROLE=worker on one PostgreSQL', () => {
  let cluster: Cluster;
  let apis: ClusterProcess[];
  let workers: ClusterProcess[];
  beforeAll(async () => {
    console.log(`cluster: executions witnessed by ${executionWitness.note}`);
    cluster = await startCluster();
    // The first process migrates and bootstraps the admin key; the others start on the ready database.
    const first = await cluster.start('api-1', 'api,ingress');
    const rest = await Promise.all([cluster.start('api-2', 'api,ingress'), cluster.start('worker-1', 'worker'), cluster.start('worker-2', 'worker')]);
    apis = [first, rest[0]];
    workers = [rest[1], rest[2]];
  });
  afterAll(() => cluster?.close());

  it(`executes ${RUNS} runs created across both APIs exactly once each, none stuck`, async () => {
    const clients = apis.map((api) => cluster.client(api));
    const runIds: string[] = [];
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        for (let i = next++; i < RUNS; i = next++) {
          const res = await clients[i % clients.length]!.post('/agent/runs', { prompt: 'sleep 0' });
          expect(res.status, res.text).toBe(200);
          runIds.push(res.body.run_id);
        }
      }),
    );
    const createdIn = Date.now() - started;
    const db = cluster.database.db;
    const terminal = await until(
      async () => {
        const counts = await countByState(db);
        const done = (counts.SUCCEEDED ?? 0) + (counts.FAILED ?? 0) + (counts.ERROR ?? 0) + (counts.CANCELLED ?? 0);
        return done === RUNS && counts;
      },
      DEADLINE_MS,
      `all ${RUNS} runs terminal`,
      250,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}; by state: ${JSON.stringify(await countByState(db))}`);
    });
    const elapsed = Date.now() - started;
    expect(terminal).toEqual({ SUCCEEDED: RUNS });

    // Exactly once: one QUEUED → CLAIMED → INPROGRESS → SUCCEEDED path and one execution in the output (and,
    // with the command runner, one start in the workspace) per run.
    const histories = await stateHistories(db);
    const executions = await witnessedExecutions(db);
    expect(histories.size).toBe(RUNS);
    const offPath = runIds.filter(
      (id) =>
        histories
          .get(id)
          ?.map((change) => change.state)
          .join(' ') !== 'QUEUED CLAIMED INPROGRESS SUCCEEDED',
    );
    expect(offPath, `runs whose states were not QUEUED CLAIMED INPROGRESS SUCCEEDED: ${offPath.slice(0, 5).join(', ')}`).toEqual([]);
    expect(runIds.filter((id) => executions.get(id) !== 1)).toEqual([]);
    if (executionWitness.runner === 'command') {
      expect(runIds.filter((id) => cluster.workspaceExecutions(id).filter((line) => line.startsWith('start ')).length !== 1)).toEqual([]);
    }

    const toClaimed = runIds.map((id) => {
      const [queued, claimed] = histories.get(id)!;
      return claimed!.at - queued!.at;
    });
    const finishedAt = Math.max(...runIds.map((id) => histories.get(id)!.at(-1)!.at));
    figure(
      `${RUNS} runs over 2 APIs and 2 workers (${executionWitness.runner} runner)`,
      `created in ${(createdIn / 1000).toFixed(1)} s, all SUCCEEDED in ${(elapsed / 1000).toFixed(1)} s`,
    );
    figure('throughput', `${(RUNS / ((finishedAt - started) / 1000)).toFixed(1)} runs/s (create of the first → the last SUCCEEDED)`);
    figure('create → CLAIMED', `p50 ${quantile(toClaimed, 0.5)} ms, p99 ${quantile(toClaimed, 0.99)} ms, max ${Math.max(...toClaimed)} ms`);
  });

  it('stops a run executing on worker 2 within 1 s of a cancel sent to API process 1', async () => {
    const api = cluster.client(apis[0]!);
    const onWorker2 = `:${workers[1]!.pid}:`;
    // Which worker claims a run is theirs to decide: start runs until one executes on worker 2.
    let runId: string | undefined;
    for (let attempt = 0; attempt < 20 && !runId; attempt++) {
      const created = (await api.post('/agent/runs', { prompt: 'sleep 60' })).body.run_id as string;
      const owner = await until(
        async () => {
          const run = await cluster.database.db.selectFrom('runs').select(['state', 'lease_owner']).where('id', '=', created).executeTakeFirstOrThrow();
          return run.state === 'INPROGRESS' && (await witnessedExecutions(cluster.database.db, [created])).get(created) === 1 && run.lease_owner;
        },
        10_000,
        'the run executing',
      );
      if (owner.includes(onWorker2)) runId = created;
      else expect((await api.post(`/agent/runs/${created}/cancel`)).status).toBe(200);
    }
    expect(runId, 'no run landed on worker 2 in 20 attempts').toBeDefined();
    const executing = () => processesWithEnv('AGENT_RUN_ID', runId!);
    if (executionWitness.runner === 'command') expect(executing().length).toBeGreaterThan(0);

    const sent = Date.now();
    const res = await api.post(`/agent/runs/${runId}/cancel`);
    expect(res.status, res.text).toBe(200);
    if (executionWitness.runner === 'command') {
      await until(() => executing().length === 0, 1000 - (Date.now() - sent), 'the run’s sandboxed command stopped on worker 2');
      figure('cancel on API 1 → command stopped on worker 2', `${Date.now() - sent} ms`);
      expect(cluster.workspaceExecutions(runId!).filter((line) => line.startsWith('end '))).toEqual([]);
    }
    const run = (await api.get(`/agent/runs/${runId}`)).body;
    expect(run.state).toBe('CANCELLED');
  });
});
