/** listEnvironments `GET /agent/environments` → ListEnvironmentsResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listEnvironments } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const listEnvironmentsHandler: OperationHandler<'listEnvironments'> =
  (ctx) =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listEnvironments(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
