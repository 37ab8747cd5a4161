/** deleteNotificationSubscription `DELETE /notifications/subscriptions/{subscriptionUid}` → 204 (its waiting events and log go too). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const deleteNotificationSubscriptionHandler: OperationHandler<'deleteNotificationSubscription'> = (ctx) => async (req, res) => {
  await deleteSubscription(ctx, principalOf(req).teamId, req.params.subscriptionUid, auditedAs(ctx, req, res, 'notification_subscription', 'deleted'));
  res.status(204).end();
};
