/** listEnvironments `GET /agent/environments` → ListEnvironmentsResponse, most recently updated first or by name. */
import { principalOf } from '../../http/auth';
import { listEnvironments } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const listEnvironmentsHandler: OperationHandler<'listEnvironments'> = (ctx) => async (req, res) => {
  const { limit, cursor, sort_by: sort } = req.query;
  res.json(await listEnvironments(ctx, principalOf(req).teamId, { sort, limit, ...(cursor ? { cursor } : {}) }));
};
