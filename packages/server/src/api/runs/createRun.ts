/** createRun `POST /agent/runs` (and createRunLegacy `POST /agent/run`) → 200 RunAgentResponse. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createRun, type CreateRunInput } from '../../runs/service';

export const createRunHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    res.json(await createRun(ctx, principalOf(req), req.body as CreateRunInput));
  };
