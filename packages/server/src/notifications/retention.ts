/**
 * Retention of the attempts log and of finished messages (delivered or given up): both are kept
 * `notifications.retentionDays` (30) and then deleted, in batches, every `windows.retentionIntervalSeconds`.
 * Pending messages are never deleted here (they are delivered or given up first).
 *
 * SERVICE-WIDE (retention acts for every team; ./repository.ts pruneNotificationsServiceWide).
 */
import { setImmediate } from 'node:timers/promises';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { startRetentionJob, type PeriodicJob } from '../periodic-job';
import { pruneNotificationsServiceWide } from './repository';

export function pruneNotifications(ctx: Pick<ServerContext, 'db' | 'clock' | 'settings'>, { batchSize = 1000 }: { batchSize?: number } = {}) {
  const cutoff = toTimestamp(new Date(ctx.clock.now().getTime() - ctx.settings.notifications.retentionDays * 86_400_000));
  return pruneNotificationsServiceWide(ctx.db, cutoff, batchSize, () => setImmediate());
}

/** Runs `pruneNotifications` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startNotificationRetention(ctx: ServerContext): PeriodicJob {
  return startRetentionJob(ctx, 'notification', () => pruneNotifications(ctx));
}
