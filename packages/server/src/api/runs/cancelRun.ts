/** cancelRun `POST /agent/runs/{runId}/cancel` → 200 bare JSON string (the run id); 409 for a finished run. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { cancelRun } from '../../runs/service';

export const cancelRunHandler =
  (ctx: ServerContext): RequestHandler<{ runId: string }> =>
  async (req, res) => {
    res.json(await cancelRun(ctx, principalOf(req).teamId, req.params.runId));
  };
