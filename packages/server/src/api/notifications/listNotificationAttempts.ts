/** listNotificationAttempts `GET /notifications/subscriptions/{subscriptionUid}/attempts` → ListNotificationAttemptsResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listAttempts } from '../../notifications/service';
import type { OperationHandler } from '../operations';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const listNotificationAttemptsHandler: OperationHandler<'listNotificationAttempts'> =
  (ctx) =>
  async (req, res) => {
    const [cursor, eventId, runId] = [str(req.query.cursor), str(req.query.event_id), str(req.query.run_id)];
    res.json(
      await listAttempts(ctx, principalOf(req).teamId, req.params.subscriptionUid, {
        limit: Number(req.query.limit ?? 50),
        ...(cursor ? { cursor } : {}),
        ...(eventId ? { eventId } : {}),
        ...(runId ? { runId } : {}),
      }),
    );
  };
