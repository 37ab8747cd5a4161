/** getRunConversation `GET /agent/runs/{runId}/conversation` → ConversationResponse. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getConversation } from '../../runs/service';

export const getRunConversationHandler =
  (ctx: ServerContext): RequestHandler<{ runId: string }> =>
  async (req, res) => {
    res.json(await getConversation(ctx, principalOf(req).teamId, req.params.runId));
  };
