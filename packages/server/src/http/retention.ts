/**
 * REST-side retention: every RETENTION_INTERVAL_SECONDS, drop the stored Idempotency-Key answers whose
 * window (IDEMPOTENCY_TTL_SECONDS) has passed — a request frees an expired key it reuses
 * (http/idempotency.ts), but keys never sent again would otherwise stay forever, one row per POST — and
 * the request counters of past rate-limit windows (http/rate-limit.ts), one row per key and window.
 *
 * SERVICE-WIDE QUERY (retention): it acts for every team.
 */
import type { ServerContext } from '../context';
import { deleteInBatches } from '../db/batched-delete';
import { startRetentionJob, type PeriodicJob } from '../periodic-job';
import { deleteExpiredIdempotencyKeysServiceWide } from './idempotency';
import { deletePastRateWindows } from './rate-limit';

/** Deletes the expired keys in batches (db/batched-delete.ts). */
export async function pruneIdempotencyKeys(ctx: Pick<ServerContext, 'db' | 'clock'>, { batchSize = 1000 }: { batchSize?: number } = {}): Promise<number> {
  const now = ctx.clock.now();
  return deleteInBatches((size) => deleteExpiredIdempotencyKeysServiceWide(ctx.db, now, size), batchSize);
}

/** Runs `pruneIdempotencyKeys` and drops past rate windows at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startRestRetention(ctx: ServerContext): PeriodicJob {
  return startRetentionJob(ctx, 'idempotency key and REST rate counter', async () => ({
    idempotencyKeysDeleted: await pruneIdempotencyKeys(ctx),
    rateCountersDeleted: await deletePastRateWindows(ctx.db, ctx.clock.now(), ctx.settings.windows.restRateWindowSeconds),
  }));
}
