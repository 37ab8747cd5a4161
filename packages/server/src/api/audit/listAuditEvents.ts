/** listAuditEvents `GET /audit-events` → ListAuditEventsResponse, newest first, filtered (admin only, x-required-role). */
import { listAuditEvents } from '../../audit/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** RFC 3339 with any offset → the stored form (UTC ISO), so text comparison is time comparison. */
const instant = (v: unknown): string | undefined => (typeof v === 'string' ? new Date(v).toISOString() : undefined);

export const listAuditEventsHandler: OperationHandler<'listAuditEvents'> =
  (ctx) =>
  async (req, res) => {
    const q = req.query;
    res.json(
      await listAuditEvents(ctx.db, principalOf(req).teamId, {
        limit: Number(q.limit ?? 50),
        cursor: str(q.cursor),
        filters: {
          resourceType: str(q.resource_type),
          resourceId: str(q.resource_id),
          actorKeyId: str(q.actor_key_id),
          since: instant(q.since),
          until: instant(q.until),
        },
      }),
    );
  };
