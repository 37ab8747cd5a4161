/** deleteNotificationSubscription `DELETE /notifications/subscriptions/{subscriptionUid}` → 204 (its waiting events and log go too). */
import { principalOf } from '../../http/auth';
import { deleteSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const deleteNotificationSubscriptionHandler: OperationHandler<'deleteNotificationSubscription'> =
  (ctx) =>
  async (req, res) => {
    await deleteSubscription(ctx, principalOf(req).teamId, req.params.subscriptionUid);
    res.status(204).end();
  };
