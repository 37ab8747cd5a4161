/** createRunFollowup `POST /agent/runs/{runId}/followups` {message} → 200 RunAgentResponse. */
import { principalOf } from '../../http/auth';
import { createFollowup } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const createRunFollowupHandler: OperationHandler<'createRunFollowup'> =
  (ctx) =>
  async (req, res) => {
    const { message } = req.body as { message: string };
    res.json(await createFollowup(ctx, principalOf(req).teamId, req.params.runId, message));
  };
