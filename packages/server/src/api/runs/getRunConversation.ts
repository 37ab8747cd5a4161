/** getRunConversation `GET /agent/runs/{runId}/conversation` → ConversationResponse. */
import { principalOf } from '../../http/auth';
import { getConversation } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const getRunConversationHandler: OperationHandler<'getRunConversation'> =
  (ctx) =>
  async (req, res) => {
    res.json(await getConversation(ctx, principalOf(req).teamId, req.params.runId));
  };
