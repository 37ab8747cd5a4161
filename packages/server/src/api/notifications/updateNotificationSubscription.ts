/** updateNotificationSubscription `PATCH /notifications/subscriptions/{subscriptionUid}` → NotificationSubscription. */
import { principalOf } from '../../http/auth';
import { updateSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const updateNotificationSubscriptionHandler: OperationHandler<'updateNotificationSubscription'> =
  (ctx) =>
  async (req, res) => {
    res.json(await updateSubscription(ctx, principalOf(req).teamId, req.params.subscriptionUid, req.body));
  };
