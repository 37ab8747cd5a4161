/** rotateNotificationSubscriptionSecret `POST …/{subscriptionUid}/rotate-secret` → 200 NotificationSubscriptionWithSecret; the old secret signs on through the overlap. */
import { principalOf } from '../../http/auth';
import { rotateSubscriptionSecret } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const rotateNotificationSubscriptionSecretHandler: OperationHandler<'rotateNotificationSubscriptionSecret'> =
  (ctx) =>
  async (req, res) => {
    res.json(await rotateSubscriptionSecret(ctx, principalOf(req).teamId, req.params.subscriptionUid));
  };
