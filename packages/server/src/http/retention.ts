/**
 * REST-side retention: every RETENTION_INTERVAL_SECONDS, drop the stored Idempotency-Key answers whose
 * window (IDEMPOTENCY_TTL_SECONDS) has passed — a request frees an expired key it reuses
 * (http/idempotency.ts), but keys never sent again would otherwise stay forever, one row per POST — and
 * the request counters of past rate-limit windows (http/rate-limit.ts), one row per key and window.
 *
 * SERVICE-WIDE QUERY (retention): it acts for every team.
 */
import { setImmediate } from 'node:timers/promises';
import type { ServerContext } from '../context';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';
import { deleteExpiredIdempotencyKeys } from './idempotency';
import { deletePastRateWindows } from './rate-limit';

/**
 * Deletes in batches, yielding between them: on SQLite a statement holds the process while it runs, and
 * a day of keys of a busy server deleted at once would stall every request for as long.
 */
export async function pruneIdempotencyKeys(
  ctx: Pick<ServerContext, 'db' | 'clock'>,
  { batchSize = 1000 }: { batchSize?: number } = {},
): Promise<number> {
  const now = ctx.clock.now();
  let deleted = 0;
  for (;;) {
    const batch = await deleteExpiredIdempotencyKeys(ctx.db, now, batchSize);
    deleted += batch;
    if (batch < batchSize) return deleted;
    await setImmediate();
  }
}

/** Runs `pruneIdempotencyKeys` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startRestRetention(ctx: ServerContext): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds: ctx.settings.windows.retentionIntervalSeconds,
    runAtStart: true,
    log: ctx.log,
    failure: 'idempotency key retention failed',
    run: async () => {
      const idempotencyKeysDeleted = await pruneIdempotencyKeys(ctx);
      if (idempotencyKeysDeleted > 0) ctx.log.info({ idempotencyKeysDeleted }, 'idempotency key retention');
      const rateCountersDeleted = await deletePastRateWindows(ctx.db, ctx.clock.now(), ctx.settings.windows.restRateWindowSeconds);
      if (rateCountersDeleted > 0) ctx.log.info({ rateCountersDeleted }, 'REST rate counter retention');
    },
  });
}
