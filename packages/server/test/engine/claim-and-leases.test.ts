import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimNextRun, extendLease, finishExecution, startExecution } from '../../src/runs/executions';
import { readEvents } from '../../src/runs/events';
import { LEASE_LOST_TWICE, sweepExpiredLeases } from '../../src/engine/sweeper';
import { heartbeatOnce } from '../../src/engine/worker';
import { testDatabases } from '../support/databases';
import { advance, createRun, createTeam, getRun, useEngineDatabase } from './helpers';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const claimerScript = path.join(serverDir, 'test/engine/fixtures/claimer.ts');
const LEASE_MS = 30_000; // settings default RUN_LEASE_SECONDS

describe.each(testDatabases())('claim and leases (%s)', (kind) => {
  // One team's runs claimed by many claimers, never finished: the team cap is not what these tests are about
  // (test/runs/fair-claiming.test.ts is).
  const fx = useEngineDatabase(kind, { settings: { teamMaxConcurrentRuns: 1000 } });

  describe('claimNextRun', () => {
    it('claims the oldest QUEUED run of any team with a lease, and nothing when none is queued', async () => {
      const { ctx, team } = fx;
      const other = await createTeam(ctx);
      const first = await createRun(ctx, other);
      advance(ctx, 1);
      const second = await createRun(ctx, team);
      const claimed = await claimNextRun(ctx, 'w1');
      expect(claimed).toMatchObject({
        id: first.id,
        state: 'CLAIMED',
        lease_owner: 'w1',
        lease_expires_at: new Date(ctx.clock.now().getTime() + LEASE_MS).toISOString(),
        claim_count: 1,
      });
      expect((await claimNextRun(ctx, 'w2'))?.id).toBe(second.id);
      expect(await claimNextRun(ctx, 'w3')).toBeUndefined();
      expect((await readEvents(ctx, team, second.id)).at(-1)).toMatchObject({ kind: 'state', data: { state: 'CLAIMED' } });
    });

    it('skips runs that are not QUEUED', async () => {
      const { ctx, team } = fx;
      const run = await createRun(ctx, team);
      await claimNextRun(ctx, 'w1');
      expect(await claimNextRun(ctx, 'w2')).toBeUndefined();
      expect((await getRun(ctx, run)).lease_owner).toBe('w1');
    });

    it('many concurrent claimers claim each run exactly once', async () => {
      const { ctx, team } = fx;
      const runs = 60;
      for (let i = 0; i < runs; i++) await createRun(ctx, team);
      const claimers = Array.from({ length: 12 }, async (_, k) => {
        const claimed: string[] = [];
        for (let run = await claimNextRun(ctx, `w${k}`); run; run = await claimNextRun(ctx, `w${k}`)) claimed.push(run.id);
        return claimed;
      });
      const all = (await Promise.all(claimers)).flat();
      expect(all).toHaveLength(runs);
      expect(new Set(all).size).toBe(runs);
    });

    it('claimers in separate processes, each with its own connection, claim each run exactly once', async () => {
      const { ctx, team, t } = fx;
      const runs = 100;
      for (let i = 0; i < runs; i++) await createRun(ctx, team);
      const perProcess = await claimInProcesses(t.databaseUrl, 4);
      const all = perProcess.flat();
      expect(all).toHaveLength(runs);
      expect(new Set(all).size).toBe(runs);
      expect(perProcess.filter((ids) => ids.length > 0).length).toBeGreaterThan(1); // they really competed
      const rows = await ctx.db.selectFrom('runs').select(['state', 'claim_count']).execute();
      expect(rows.every((r) => r.state === 'CLAIMED' && Number(r.claim_count) === 1)).toBe(true);
    }, 60_000);
  });

  describe('TEAM_MAX_CONCURRENT_RUNS', () => {
    const withCap = (teamMaxConcurrentRuns: number) => ({ ...fx.ctx, settings: { ...fx.ctx.settings, teamMaxConcurrentRuns } });
    const leasedByTeam = async () => {
      const rows = await fx.ctx.db.selectFrom('runs').select(['team_id', 'state']).where('state', '=', 'CLAIMED').execute();
      const counts: Record<string, number> = {};
      for (const row of rows) counts[row.team_id] = (counts[row.team_id] ?? 0) + 1;
      return counts;
    };

    it('many concurrent claimers lease at most the cap of each team, and the other teams still get theirs', async () => {
      const { ctx, team } = fx;
      const other = await createTeam(ctx);
      for (let i = 0; i < 30; i++) await createRun(ctx, i % 3 === 0 ? other : team);
      const capped = withCap(2);
      const claimers = Array.from({ length: 12 }, async (_, k) => {
        const claimed: string[] = [];
        for (let run = await claimNextRun(capped, `w${k}`); run; run = await claimNextRun(capped, `w${k}`)) claimed.push(run.id);
        return claimed;
      });
      expect((await Promise.all(claimers)).flat()).toHaveLength(4);
      expect(await leasedByTeam()).toEqual({ [team]: 2, [other]: 2 });
    });

    it('claimers in separate processes lease at most the cap of each team between them', async () => {
      const { ctx, team, t } = fx;
      const other = await createTeam(ctx);
      for (let i = 0; i < 40; i++) await createRun(ctx, i % 2 === 0 ? other : team);
      const perProcess = await claimInProcesses(t.databaseUrl, 4, 3);
      expect(perProcess.flat()).toHaveLength(6);
      expect(await leasedByTeam()).toEqual({ [team]: 3, [other]: 3 });
    }, 60_000);

    it('does not count a BLOCKED run: it holds no worker', async () => {
      const { ctx, team } = fx;
      const blocked = await createRun(ctx, team);
      advance(ctx, 1);
      const next = await createRun(ctx, team);
      const capped = withCap(1);
      expect((await claimNextRun(capped, 'w1'))?.id).toBe(blocked.id);
      expect(await claimNextRun(capped, 'w2')).toBeUndefined();
      // As a run that stopped to ask leaves it: BLOCKED, its lease given back.
      await ctx.db.updateTable('runs').set({ state: 'BLOCKED', lease_owner: null, lease_expires_at: null }).where('id', '=', blocked.id).execute();
      expect((await claimNextRun(capped, 'w2'))?.id).toBe(next.id);
    });
  });

  describe('lease expiry (sweeper)', () => {
    it('returns a run whose worker vanished to QUEUED once, then marks it ERROR the second time', async () => {
      const { ctx, team } = fx;
      const run = await createRun(ctx, team);
      const claimed = (await claimNextRun(ctx, 'crashed-1'))!;
      await startExecution(ctx, claimed, 'crashed-1', claimed.lease_expires_at!, 'echo');

      advance(ctx, LEASE_MS - 1);
      expect(await sweepExpiredLeases(ctx)).toEqual({ requeued: [], errored: [] });
      advance(ctx, 1);
      expect(await sweepExpiredLeases(ctx)).toEqual({ requeued: [run.id], errored: [] });
      expect(await getRun(ctx, run)).toMatchObject({ state: 'QUEUED', lease_owner: null, lease_expires_at: null, claim_count: 1 });

      const again = (await claimNextRun(ctx, 'crashed-2'))!;
      expect(again.claim_count).toBe(2);
      advance(ctx, LEASE_MS);
      expect(await sweepExpiredLeases(ctx)).toEqual({ requeued: [], errored: [run.id] });
      const errored = await getRun(ctx, run);
      expect(errored).toMatchObject({ state: 'ERROR', lease_owner: null });
      expect(JSON.parse(errored.status_message!)).toEqual(LEASE_LOST_TWICE);
      expect(LEASE_LOST_TWICE).toEqual({ message: 'worker lost the run twice', error_code: 'lease_expired', retryable: true });
    });

    it('heartbeats keep a slow run from being swept', async () => {
      const { ctx, team } = fx;
      const run = await createRun(ctx, team);
      const claimed = (await claimNextRun(ctx, 'w1'))!;
      await startExecution(ctx, claimed, 'w1', claimed.lease_expires_at!, 'echo');
      for (let i = 0; i < 5; i++) {
        advance(ctx, 20_000);
        expect(await heartbeatOnce(ctx, claimed, 'w1', new AbortController())).toBe(true);
        expect(await sweepExpiredLeases(ctx)).toEqual({ requeued: [], errored: [] });
      }
      expect(await getRun(ctx, run)).toMatchObject({
        state: 'INPROGRESS',
        lease_expires_at: new Date(ctx.clock.now().getTime() + LEASE_MS).toISOString(),
      });
    });

    it('a worker that lost its lease can neither heartbeat nor finish: the run is never executed by two workers', async () => {
      const { ctx, team } = fx;
      const run = await createRun(ctx, team);
      const stale = (await claimNextRun(ctx, 'slow'))!;
      await startExecution(ctx, stale, 'slow', stale.lease_expires_at!, 'echo');
      advance(ctx, LEASE_MS);
      await sweepExpiredLeases(ctx);
      const fresh = (await claimNextRun(ctx, 'fresh'))!;
      expect(fresh.id).toBe(run.id);

      const controller = new AbortController();
      expect(await heartbeatOnce(ctx, stale, 'slow', controller)).toBe(false);
      expect(controller.signal.reason).toMatchObject({ kind: 'lease_lost' });
      expect(await extendLease(ctx, stale, 'slow', new Date().toISOString())).toBe(false);
      expect(await startExecution(ctx, stale, 'slow', stale.lease_expires_at!, 'echo')).toMatchObject({ ok: false });
      expect(await finishExecution(ctx, stale, 'slow', { state: 'SUCCEEDED' })).toEqual({ ok: false, reason: 'not_owned' });
      expect(await getRun(ctx, run)).toMatchObject({ state: 'CLAIMED', lease_owner: 'fresh' });
    });

    it('a heartbeat that finds the run cancelled (by another process) aborts with reason cancelled', async () => {
      const { ctx, team } = fx;
      await createRun(ctx, team);
      const claimed = (await claimNextRun(ctx, 'w1'))!;
      await startExecution(ctx, claimed, 'w1', claimed.lease_expires_at!, 'echo');
      // another process cancels: the database changes, this process's registry is not told
      await ctx.db.updateTable('runs').set({ state: 'CANCELLED', lease_owner: null, lease_expires_at: null }).where('id', '=', claimed.id).execute();
      const controller = new AbortController();
      expect(await heartbeatOnce(ctx, claimed, 'w1', controller)).toBe(false);
      expect(controller.signal.reason).toMatchObject({ kind: 'cancelled' });
    });
  });
});

/** Claims in `count` separate processes (test/engine/fixtures/claimer.ts) until each finds nothing; the ids each claimed. */
async function claimInProcesses(databaseUrl: string, count: number, teamCap?: number): Promise<string[][]> {
  const args = (i: number) => [claimerScript, databaseUrl, `proc-${i}`, ...(teamCap === undefined ? [] : [String(teamCap)])];
  const processes = Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, ['--import', 'tsx', ...args(i)], { cwd: serverDir, stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const outputs = processes.map((p) => {
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    return {
      ready: new Promise<void>((resolve) => p.stdout!.on('data', () => out.includes('ready') && resolve())),
      done: new Promise<string[]>((resolve, reject) =>
        p.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1]!) as string[]) : reject(new Error(`claimer exited ${code}`)))),
      ),
    };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const p of processes) p.stdin!.end('go\n');
  return Promise.all(outputs.map((o) => o.done));
}
