/** getRun `GET /agent/runs/{runId}` → RunItem. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getRun } from '../../runs/service';

export const getRunHandler =
  (ctx: ServerContext): RequestHandler<{ runId: string }> =>
  async (req, res) => {
    res.json(await getRun(ctx, principalOf(req).teamId, req.params.runId));
  };
