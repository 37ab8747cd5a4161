/**
 * What a worker says about a run while it prepares it, without changing its state: a status message
 * (`pulling image … 12 of 40 MB`) on the run and as a state event of the same state, and the digest of
 * the image it runs on (`image_digest`). Written under the worker's lease, like every worker write.
 */
import { toTimestamp } from '../clock';
import type { RunStatusMessage } from './contract';
import { appendEvents, inRunTransaction } from './events';
import type { RunRow, RunsDeps } from './repository';
import { teamScope } from '../db/scoped';

export async function recordRunProgress(
  deps: Pick<RunsDeps, 'db' | 'runSignals' | 'clock'>,
  run: Pick<RunRow, 'id' | 'team_id' | 'lease_owner'>,
  statusMessage: RunStatusMessage,
  imageDigest?: string,
): Promise<boolean> {
  const leaseOwner = run.lease_owner;
  if (!leaseOwner) return false;
  const at = toTimestamp(deps.clock.now());
  return inRunTransaction(deps, run.team_id, run.id, async (tx) => {
    const seq = await appendEvents(tx, run, [{ kind: 'state', data: { run_id: run.id, state: 'INPROGRESS', updated_at: at, status_message: statusMessage } }], {
      leaseOwner,
      states: ['INPROGRESS'],
    });
    if (seq === undefined) return false;
    await teamScope(tx, run.team_id)
      .updateTable('runs')
      .set({ status_message: JSON.stringify(statusMessage), updated_at: at, ...(imageDigest ? { image_digest: imageDigest } : {}) })
      .where('id', '=', run.id)
      .execute();
    return true;
  });
}
