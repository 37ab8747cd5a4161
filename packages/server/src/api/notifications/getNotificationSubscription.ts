/** getNotificationSubscription `GET /notifications/subscriptions/{subscriptionUid}` → NotificationSubscription. */
import { principalOf } from '../../http/auth';
import { getSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const getNotificationSubscriptionHandler: OperationHandler<'getNotificationSubscription'> = (ctx) => async (req, res) => {
  res.json(await getSubscription(ctx, principalOf(req).teamId, req.params.subscriptionUid));
};
