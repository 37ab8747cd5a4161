/** getEnvironment `GET /agent/environments/{environmentId}` → CloudEnvironment. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getEnvironment } from '../../environments/service';

export const getEnvironmentHandler =
  (ctx: ServerContext): RequestHandler<{ environmentId: string }> =>
  async (req, res) => {
    res.json(await getEnvironment(ctx, principalOf(req).teamId, req.params.environmentId));
  };
