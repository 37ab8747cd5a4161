/**
 * Delivery-log retention (seed §Dashboard behaviors 4, issue 4 "Delivery log"): per webhook, keep the newest
 * `limits.deliveryRetentionMinimum` (50) entries and everything received in the last
 * `windows.deliveryRetentionDays` (7) days; delete the rest. Runs every `windows.retentionIntervalSeconds`.
 *
 * Identities are remembered by the Accepted rows themselves (accepted_identity), so they vanish together
 * with their entry — "remembered at least as long as the log keeps the accepted entry".
 *
 * Also drops rate-limit counter windows that no limiter reads any more (older than the previous window).
 *
 * SERVICE-WIDE QUERIES (one of the three named in wire-decisions §Tenancy): retention acts for every team.
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';

export interface RetentionResult {
  deliveriesDeleted: number;
  countersDeleted: number;
}

export async function pruneDeliveryLog(ctx: Pick<ServerContext, 'db' | 'clock' | 'settings'>): Promise<RetentionResult> {
  const { db, clock, settings } = ctx;
  const now = clock.now().getTime();
  const cutoff = toTimestamp(new Date(now - settings.windows.deliveryRetentionDays * 86_400_000));
  const keep = settings.limits.deliveryRetentionMinimum;

  // Candidates are only rows older than the cutoff; of those, a row survives when it is among the newest
  // `keep` of its webhook. The correlated subquery is an index walk of at most `keep` entries on
  // (webhook_id, received_at, id), so the cost does not grow with the size of the log.
  const deleted = await db
    .deleteFrom('webhook_deliveries')
    .where('received_at', '<', cutoff)
    .where((eb) =>
      eb(
        'id',
        'not in',
        eb
          .selectFrom('webhook_deliveries as newest')
          .select('newest.id')
          .whereRef('newest.webhook_id', '=', 'webhook_deliveries.webhook_id')
          .orderBy('newest.received_at', 'desc')
          .orderBy('newest.id', 'desc')
          .limit(keep),
      ),
    )
    .executeTakeFirst();

  const oldestLiveWindow = Math.floor(now / 1000) - 2 * settings.windows.rateLimitWindowSeconds;
  const counters = await db.deleteFrom('rate_limit_counters').where('window_start', '<', oldestLiveWindow).executeTakeFirst();

  return { deliveriesDeleted: Number(deleted.numDeletedRows), countersDeleted: Number(counters.numDeletedRows) };
}

/**
 * Starts the periodic job (first run at once); returns a stop function that also waits for a run in
 * progress, so the database is never closed under it. A failed run is logged and retried next interval.
 */
export function startDeliveryRetention(ctx: ServerContext): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (inFlight || stopped) return;
    inFlight = pruneDeliveryLog(ctx)
      .then((result) => {
        if (result.deliveriesDeleted > 0) ctx.log.info(result, 'delivery log retention');
      })
      .catch((err: unknown) => {
        ctx.log.error({ err }, 'delivery log retention failed');
      })
      .finally(() => {
        inFlight = undefined;
      });
  };
  const timer = setInterval(tick, ctx.settings.windows.retentionIntervalSeconds * 1000);
  timer.unref();
  tick();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await inFlight;
  };
}
