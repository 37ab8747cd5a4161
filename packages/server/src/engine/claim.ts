/**
 * The worker claim: atomically moves the oldest QUEUED run to CLAIMED under this worker's lease.
 *
 * SERVICE-WIDE QUERY (one of the three named in wire-decisions §Tenancy: ingress lookup by webhook UID,
 * the worker claim, retention): a worker serves every team, so the claim picks the next run without a
 * team_id filter. Everything it does after picking (state event, later transitions) is team-scoped
 * through the run's own team_id.
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { forUpdateSkipLocked } from '../db/dialect';
import { notifyRunEvent } from './run-signals';
import { normalizeRun, type RunRow, type StateEventData } from './run-store';

export type ClaimDeps = Pick<ServerContext, 'db' | 'dialect' | 'clock' | 'settings'>;

/**
 * `UPDATE runs SET state='CLAIMED', lease…, claim_count+1 WHERE id = (SELECT id … WHERE state='QUEUED'
 * ORDER BY created_at, id LIMIT 1 [FOR UPDATE SKIP LOCKED]) AND state='QUEUED' RETURNING *`, plus the
 * CLAIMED state event, in one transaction. SQLite has one writer, so the conditional UPDATE is atomic
 * there; on PostgreSQL SKIP LOCKED lets concurrent claimers pass over each other's candidate rows and the
 * repeated `state='QUEUED'` makes a lost race a miss, never a double claim. Returns undefined when
 * nothing is queued (or another claimer won the race).
 */
export async function claimNextRun(ctx: ClaimDeps, workerId: string, now: Date = ctx.clock.now()): Promise<RunRow | undefined> {
  const ts = toTimestamp(now);
  const leaseExpiresAt = toTimestamp(new Date(now.getTime() + ctx.settings.windows.leaseSeconds * 1000));
  const claimed = await ctx.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('runs')
      .set((eb) => ({
        state: 'CLAIMED',
        lease_owner: workerId,
        lease_expires_at: leaseExpiresAt,
        claim_count: eb('claim_count', '+', 1),
        updated_at: ts,
        status_message: null,
        event_seq: eb('event_seq', '+', 1),
      }))
      .where('id', '=', (eb) =>
        forUpdateSkipLocked(
          eb.selectFrom('runs').select('id').where('state', '=', 'QUEUED').orderBy('created_at').orderBy('id').limit(1),
          ctx.dialect,
        ),
      )
      .where('state', '=', 'QUEUED')
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    const run = normalizeRun(row);
    const data: StateEventData = { run_id: run.id, state: 'CLAIMED', updated_at: ts };
    await tx
      .insertInto('run_events')
      .values({ run_id: run.id, team_id: run.team_id, seq: run.event_seq, kind: 'state', data: JSON.stringify(data), created_at: ts })
      .execute();
    return run;
  });
  if (claimed) notifyRunEvent(claimed.id);
  return claimed;
}
