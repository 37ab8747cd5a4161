/** rotateNotificationSubscriptionSecret `POST …/{subscriptionUid}/rotate-secret` → 200 NotificationSubscriptionWithSecret; the old secret signs on through the overlap. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { rotateSubscriptionSecret } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const rotateNotificationSubscriptionSecretHandler: OperationHandler<'rotateNotificationSubscriptionSecret'> = (ctx) => async (req, res) => {
  res.json(
    await rotateSubscriptionSecret(
      ctx,
      principalOf(req).teamId,
      req.params.subscriptionUid,
      auditedAs(ctx, req, res, 'notification_subscription', 'secret_rotated'),
    ),
  );
};
