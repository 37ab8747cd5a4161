/**
 * Retention of the audit log: events older than AUDIT_RETENTION_DAYS (365) are deleted, in batches
 * (yielding between them: on SQLite a statement holds the process while it runs), at start and every
 * RETENTION_INTERVAL_SECONDS.
 *
 * SERVICE-WIDE (retention acts for every team; ./repository.ts deleteAuditEventsBeforeServiceWide).
 */
import { setImmediate } from 'node:timers/promises';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';
import { deleteAuditEventsBeforeServiceWide } from './repository';

export async function pruneAuditEvents(ctx: Pick<ServerContext, 'db' | 'clock' | 'settings'>, { batchSize = 1000 }: { batchSize?: number } = {}): Promise<number> {
  const cutoff = toTimestamp(new Date(ctx.clock.now().getTime() - ctx.settings.audit.retentionDays * 86_400_000));
  let deleted = 0;
  for (;;) {
    const batch = await deleteAuditEventsBeforeServiceWide(ctx.db, cutoff, batchSize);
    deleted += batch;
    if (batch < batchSize) return deleted;
    await setImmediate();
  }
}

/** Runs `pruneAuditEvents` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startAuditRetention(ctx: ServerContext): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds: ctx.settings.windows.retentionIntervalSeconds,
    runAtStart: true,
    log: ctx.log,
    failure: 'audit log retention failed',
    run: async () => {
      const auditEventsDeleted = await pruneAuditEvents(ctx);
      if (auditEventsDeleted > 0) ctx.log.info({ auditEventsDeleted }, 'audit log retention');
    },
  });
}
