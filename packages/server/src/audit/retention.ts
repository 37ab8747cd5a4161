/**
 * Retention of the audit log: events older than AUDIT_RETENTION_DAYS (365) are deleted, in batches
 * (db/batched-delete.ts), at start and every RETENTION_INTERVAL_SECONDS.
 *
 * SERVICE-WIDE (retention acts for every team; ./repository.ts deleteAuditEventsBeforeServiceWide).
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { deleteInBatches } from '../db/batched-delete';
import { startRetentionJob, type PeriodicJob } from '../periodic-job';
import { deleteAuditEventsBeforeServiceWide } from './repository';

export async function pruneAuditEvents(
  ctx: Pick<ServerContext, 'db' | 'clock' | 'settings'>,
  { batchSize = 1000 }: { batchSize?: number } = {},
): Promise<number> {
  const cutoff = toTimestamp(new Date(ctx.clock.now().getTime() - ctx.settings.audit.retentionDays * 86_400_000));
  return deleteInBatches((size) => deleteAuditEventsBeforeServiceWide(ctx.db, cutoff, size), batchSize);
}

/** Runs `pruneAuditEvents` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startAuditRetention(ctx: ServerContext): PeriodicJob {
  return startRetentionJob(ctx, 'audit log', async () => ({ auditEventsDeleted: await pruneAuditEvents(ctx) }));
}
