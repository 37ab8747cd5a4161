/** listNotificationAttempts `GET /notifications/subscriptions/{subscriptionUid}/attempts` → ListNotificationAttemptsResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listAttempts } from '../../notifications/service';
import type { OperationHandler } from '../operations';

export const listNotificationAttemptsHandler: OperationHandler<'listNotificationAttempts'> = (ctx) => async (req, res) => {
  const { limit, cursor, event_id: eventId, run_id: runId } = req.query;
  res.json(
    await listAttempts(ctx, principalOf(req).teamId, req.params.subscriptionUid, {
      limit,
      ...(cursor ? { cursor } : {}),
      ...(eventId ? { eventId } : {}),
      ...(runId ? { runId } : {}),
    }),
  );
};
