/** updateNotificationSubscription `PATCH /notifications/subscriptions/{subscriptionUid}` → NotificationSubscription. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { updateSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const updateNotificationSubscriptionHandler: OperationHandler<'updateNotificationSubscription'> = (ctx) => async (req, res) => {
  res.json(
    await updateSubscription(
      ctx,
      principalOf(req).teamId,
      req.params.subscriptionUid,
      req.body,
      auditedAs(ctx, req, res, 'notification_subscription', 'updated'),
    ),
  );
};
