/** replayNotificationEvent `POST …/{subscriptionUid}/events/{eventId}/replay` → 202 ReplayNotificationEventResponse (admin). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { replayEvent } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const replayNotificationEventHandler: OperationHandler<'replayNotificationEvent'> = (ctx) => async (req, res) => {
  const { subscriptionUid, eventId } = req.params;
  res.status(202).json(await replayEvent(ctx, principalOf(req).teamId, subscriptionUid, eventId, auditedAs(ctx, req, res, 'notification_event', 'replayed')));
};
