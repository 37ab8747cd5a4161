/**
 * Lease recovery: a CLAIMED or INPROGRESS run whose lease expired belongs to a worker that crashed or
 * lost its database connection. The first time it goes back to QUEUED; a run lost a second time is
 * marked ERROR (an agent that kills its worker must not loop forever). The same job ends runs left
 * BLOCKED longer than RUN_BLOCKED_TIMEOUT_SECONDS (runs/blocked.ts).
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';
import { failUnansweredRunsServiceWide } from '../runs/blocked';
import { recoverExpiredLease } from '../runs/executions';
import { findExpiredLeasesServiceWide, type RunsDeps } from '../runs/repository';
import type { RunStatusMessage } from '../runs/contract';

export type SweepDeps = RunsDeps & Pick<ServerContext, 'log' | 'settings'>;

export const LEASE_LOST_TWICE: RunStatusMessage = {
  message: 'worker lost the run twice',
  error_code: 'lease_expired',
  retryable: true,
};

export interface SweepReport {
  requeued: string[];
  errored: string[];
}

/** Expired leases recovered per sweep; the rest wait for the next one. */
const SWEEP_BATCH = 500;

/**
 * One sweep. The scan covers every team (a SERVICE-WIDE read); each recovery is then a team-scoped
 * conditional transition guarded by the lease owner and expiry it saw, so a heartbeat that lands in between wins.
 */
export async function sweepExpiredLeases(deps: SweepDeps): Promise<SweepReport> {
  const ts = toTimestamp(deps.clock.now());
  const report: SweepReport = { requeued: [], errored: [] };
  for (const lease of await findExpiredLeasesServiceWide(deps.db, ts, SWEEP_BATCH)) {
    const lostTwice = lease.claim_count >= 2;
    const result = await recoverExpiredLease(deps, lease, ts, lostTwice ? { to: 'ERROR', statusMessage: LEASE_LOST_TWICE } : { to: 'QUEUED' });
    if (!result.ok) continue;
    (lostTwice ? report.errored : report.requeued).push(lease.id);
    deps.log.warn({ runId: lease.id, lostBy: lease.lease_owner, state: result.run.state }, 'recovered a run whose lease expired');
  }
  return report;
}

/** Ends the runs whose question went unanswered for RUN_BLOCKED_TIMEOUT_SECONDS (FAILED `blocked_timeout`). */
export async function sweepUnansweredRuns(deps: SweepDeps): Promise<string[]> {
  const failed = await failUnansweredRunsServiceWide(deps, deps.settings.windows.blockedTimeoutSeconds);
  for (const runId of failed) deps.log.info({ runId }, 'a blocked run got no answer in time');
  return failed;
}

/** Runs `sweepExpiredLeases` and `sweepUnansweredRuns` every settings.windows.sweepIntervalSeconds until stopped. */
export function startSweeper(deps: SweepDeps, intervalSeconds: number): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds,
    runAtStart: false,
    log: deps.log,
    failure: 'lease sweep failed',
    run: async () => {
      await sweepExpiredLeases(deps);
      await sweepUnansweredRuns(deps);
    },
  });
}
