/** deleteEnvironment `DELETE /agent/environments/{environmentId}` → 204. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { deleteEnvironment } from '../../environments/service';

export const deleteEnvironmentHandler =
  (ctx: ServerContext): RequestHandler<{ environmentId: string }> =>
  async (req, res) => {
    await deleteEnvironment(ctx, principalOf(req).teamId, req.params.environmentId);
    res.status(204).end();
  };
