/** listEnvironments `GET /agent/environments` → ListEnvironmentsResponse, most recently updated first or by name. */
import { principalOf } from '../../http/auth';
import { listEnvironments } from '../../environments/service';
import type { EnvironmentSort } from '../../environments/repository';
import type { OperationHandler } from '../operations';

export const listEnvironmentsHandler: OperationHandler<'listEnvironments'> =
  (ctx) =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const sort = (req.query.sort_by ?? 'last_updated') as EnvironmentSort;
    res.json(await listEnvironments(ctx, principalOf(req).teamId, { sort, limit, ...(cursor ? { cursor } : {}) }));
  };
