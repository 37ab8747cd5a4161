/**
 * Lease recovery: a CLAIMED or INPROGRESS run whose lease expired belongs to a worker that crashed or
 * lost its database connection. The first time it goes back to QUEUED; a run lost a second time is
 * marked ERROR (an agent that kills its worker must not loop forever).
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';
import type { RunStatusMessage } from './runner';
import { transition, type RunStoreDeps, type TransitionResult } from './run-store';

export type SweepDeps = RunStoreDeps & Pick<ServerContext, 'log'>;

export const LEASE_LOST_TWICE: RunStatusMessage = {
  message: 'worker lost the run twice',
  error_code: 'lease_expired',
  retryable: true,
};

export interface SweepReport {
  requeued: string[];
  errored: string[];
}

/**
 * One sweep. SERVICE-WIDE QUERY (part of the worker claim path, wire-decisions §Tenancy): the scan for
 * expired leases covers every team; each recovery is then a team-scoped conditional transition guarded
 * by the lease owner and expiry it saw, so a heartbeat that lands in between wins.
 */
export async function sweepExpiredLeases(deps: SweepDeps): Promise<SweepReport> {
  const now = deps.clock.now();
  const ts = toTimestamp(now);
  const expired = await deps.db
    .selectFrom('runs')
    .select(['id', 'team_id', 'lease_owner', 'claim_count'])
    .where('state', 'in', ['CLAIMED', 'INPROGRESS'])
    .where('lease_expires_at', '<=', ts)
    .orderBy('lease_expires_at')
    .limit(500)
    .execute();
  const report: SweepReport = { requeued: [], errored: [] };
  for (const run of expired) {
    if (run.lease_owner === null) continue;
    const guard = { from: ['CLAIMED', 'INPROGRESS'] as const, leaseOwner: run.lease_owner, leaseExpiredBy: ts };
    let result: TransitionResult;
    if (Number(run.claim_count) < 2) {
      result = await transition(deps, run.team_id, run.id, { ...guard, to: 'QUEUED' });
      if (result.ok) report.requeued.push(run.id);
    } else {
      result = await transition(deps, run.team_id, run.id, { ...guard, to: 'ERROR', statusMessage: LEASE_LOST_TWICE });
      if (result.ok) report.errored.push(run.id);
    }
    if (result.ok) deps.log.warn({ runId: run.id, lostBy: run.lease_owner, state: result.run.state }, 'recovered a run whose lease expired');
  }
  return report;
}

/** Runs `sweepExpiredLeases` every settings.windows.sweepIntervalSeconds until stopped. */
export function startSweeper(deps: SweepDeps, intervalSeconds: number): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds,
    runAtStart: false,
    log: deps.log,
    failure: 'lease sweep failed',
    run: async () => void (await sweepExpiredLeases(deps)),
  });
}
