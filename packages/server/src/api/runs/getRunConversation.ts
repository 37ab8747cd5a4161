/** getRunConversation `GET /agent/runs/{runId}/conversation` → ConversationResponse, streamed (http/streamed-body.ts). */
import { principalOf } from '../../http/auth';
import { sendStreamedBody } from '../../http/streamed-body';
import { getConversation } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const getRunConversationHandler: OperationHandler<'getRunConversation'> = (ctx) => async (req, res) => {
  const conversation = await getConversation(ctx, principalOf(req).teamId, req.params.runId);
  await sendStreamedBody(req, res, { 'Content-Type': 'application/json; charset=utf-8' }, conversation);
};
