/**
 * Delivery-log retention (docs/service-spec.md §Dashboard behaviors 4): per webhook, keep the newest
 * `limits.deliveryRetentionMinimum` (50) entries and everything received in the last
 * `windows.deliveryRetentionDays` (7) days; delete the rest. Runs every `windows.retentionIntervalSeconds`.
 *
 * Identities are remembered by the Accepted rows themselves (accepted_identity), so they vanish together
 * with their entry — "remembered at least as long as the log keeps the accepted entry".
 *
 * Also drops rate-limit counter windows that no limiter reads any more (older than the previous window).
 *
 * SERVICE-WIDE QUERIES (one of those named in docs/wire.md §Tenancy): retention acts for every team.
 */
import { setImmediate } from 'node:timers/promises';
import type { DeleteResult, Kysely } from 'kysely';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import type { Database, Timestamp } from '../db/tables';
import { startRetentionJob, type PeriodicJob } from '../periodic-job';

// A type, not an interface: the retention job logs it as counts by name (periodic-job.ts startRetentionJob).
export type RetentionResult = {
  deliveriesDeleted: number;
  countersDeleted: number;
};

/**
 * Deletes in batches of at most `batchSize` rows, yielding to the event loop between them: on SQLite a
 * statement blocks the process while it runs, and a week's backlog of a busy log deleted in one statement
 * would stall every request (and the ingress's group commit) for as long.
 */
export async function pruneDeliveryLog(
  ctx: Pick<ServerContext, 'db' | 'clock' | 'settings'>,
  { batchSize = 1000 }: { batchSize?: number } = {},
): Promise<RetentionResult> {
  const { db, clock, settings } = ctx;
  const now = clock.now().getTime();
  const cutoff = toTimestamp(new Date(now - settings.windows.deliveryRetentionDays * 86_400_000));
  const keep = settings.limits.deliveryRetentionMinimum;

  // Candidates are only rows older than the cutoff, oldest first (the received_at index); of those, a row
  // survives when it is among the newest `keep` of its webhook. The correlated subquery is an index walk
  // of at most `keep` entries on (webhook_id, received_at, id), so the cost does not grow with the log.
  let deliveriesDeleted = 0;
  for (;;) {
    const batch = await deleteOldDeliveriesServiceWide(db, cutoff, keep, batchSize);
    const deleted = Number(batch.numDeletedRows);
    deliveriesDeleted += deleted;
    if (deleted < batchSize) break;
    await setImmediate();
  }

  const oldestLiveWindow = Math.floor(now / 1000) - 2 * settings.windows.rateLimitWindowSeconds;
  const counters = await db.deleteFrom('rate_limit_counters').where('window_start', '<', oldestLiveWindow).executeTakeFirst();

  return { deliveriesDeleted, countersDeleted: Number(counters.numDeletedRows) };
}

/** One batch: the oldest rows received before `cutoff` that are not among the newest `keep` of their webhook. */
function deleteOldDeliveriesServiceWide(db: Kysely<Database>, cutoff: Timestamp, keep: number, batchSize: number): Promise<DeleteResult> {
  return db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries as old')
        .select('old.id')
        .where('old.received_at', '<', cutoff)
        .where((inner) =>
          inner(
            'old.id',
            'not in',
            inner
              .selectFrom('webhook_deliveries as newest')
              .select('newest.id')
              .whereRef('newest.webhook_id', '=', 'old.webhook_id')
              .orderBy('newest.received_at', 'desc')
              .orderBy('newest.id', 'desc')
              .limit(keep),
          ),
        )
        .orderBy('old.received_at')
        .limit(batchSize),
    )
    .executeTakeFirst();
}

/** Runs `pruneDeliveryLog` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startDeliveryRetention(ctx: ServerContext): PeriodicJob {
  return startRetentionJob(ctx, 'delivery log', () => pruneDeliveryLog(ctx));
}
