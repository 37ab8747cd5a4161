/** updateEnvironment `PATCH /agent/environments/{environmentId}` → CloudEnvironment. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { updateEnvironment, type EnvironmentInput } from '../../environments/service';

export const updateEnvironmentHandler =
  (ctx: ServerContext): RequestHandler<{ environmentId: string }> =>
  async (req, res) => {
    const body = req.body as EnvironmentInput;
    res.json(await updateEnvironment(ctx, principalOf(req).teamId, req.params.environmentId, body));
  };
