/** listNotificationSubscriptions `GET /notifications/subscriptions` → ListNotificationSubscriptionsResponse, newest first, never secrets. */
import { principalOf } from '../../http/auth';
import { listSubscriptions } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const listNotificationSubscriptionsHandler: OperationHandler<'listNotificationSubscriptions'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listSubscriptions(ctx, principalOf(req).teamId, { limit, cursor }));
};
