/**
 * A revoked API key stops receiving: every `SSE_KEY_RECHECK_SECONDS` (2 by default) this process asks which
 * keys of its open event streams are still active and ends the streams of the others — revoked here or in
 * another process sharing the database — within that interval.
 */
import { findActiveKeyIdsServiceWide } from '../api-keys/repository';
import type { HttpContext } from './context';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';

export function startRevokedKeyStreamCloser(ctx: HttpContext): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds: ctx.settings.connections.sseKeyRecheckSeconds,
    runAtStart: false,
    log: ctx.log,
    failure: 'checking the keys of open event streams failed',
    run: async () => {
      const keyIds = ctx.eventStreamSlots.keyIds();
      if (keyIds.length === 0) return;
      const active = await findActiveKeyIdsServiceWide(ctx.db, keyIds);
      for (const keyId of keyIds) {
        if (active.has(keyId)) continue;
        ctx.log.info({ key_id: keyId }, 'API key revoked: its event streams end');
        ctx.eventStreamSlots.endStreamsOf(keyId);
      }
    },
  });
}
