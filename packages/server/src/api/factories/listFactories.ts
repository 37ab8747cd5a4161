/** listFactories `GET /factories` → ListFactoriesResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listFactories } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const listFactoriesHandler: OperationHandler<'listFactories'> =
  (ctx) =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listFactories(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
