/** createRunFollowup `POST /agent/runs/{runId}/followups` {message} → 200 RunAgentResponse. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createFollowup } from '../../runs/service';

export const createRunFollowupHandler =
  (ctx: ServerContext): RequestHandler<{ runId: string }> =>
  async (req, res) => {
    const { message } = req.body as { message: string };
    res.json(await createFollowup(ctx, principalOf(req).teamId, req.params.runId, message));
  };
