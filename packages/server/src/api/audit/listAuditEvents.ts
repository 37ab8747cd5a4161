/** listAuditEvents `GET /audit-events` → ListAuditEventsResponse, newest first, filtered (admin only, x-required-role). */
import { listAuditEvents } from '../../audit/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';
import { storedInstant } from '../query';

export const listAuditEventsHandler: OperationHandler<'listAuditEvents'> = (ctx) => async (req, res) => {
  const q = req.query;
  res.json(
    await listAuditEvents(ctx.db, principalOf(req).teamId, {
      limit: q.limit,
      cursor: q.cursor,
      filters: {
        resourceType: q.resource_type,
        resourceId: q.resource_id,
        actorKeyId: q.actor_key_id,
        since: storedInstant(q.since),
        until: storedInstant(q.until),
      },
    }),
  );
};
