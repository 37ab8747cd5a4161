/** createRunFollowup `POST /agent/runs/{runId}/followups` {message, mode?} → 200 RunAgentResponse. */
import { principalOf } from '../../http/auth';
import { createFollowup } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const createRunFollowupHandler: OperationHandler<'createRunFollowup'> = (ctx) => async (req, res) => {
  res.json(await createFollowup(ctx, principalOf(req).teamId, req.params.runId, req.body));
};
