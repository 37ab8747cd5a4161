/** createNotificationSubscription `POST /notifications/subscriptions` → 201 NotificationSubscriptionWithSecret (the secret shown this once). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createSubscription } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const createNotificationSubscriptionHandler: OperationHandler<'createNotificationSubscription'> = (ctx) => async (req, res) => {
  res.status(201).json(await createSubscription(ctx, principalOf(req).teamId, req.body, auditedAs(ctx, req, res, 'notification_subscription', 'created')));
};
