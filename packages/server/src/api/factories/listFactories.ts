/** listFactories `GET /factories` → ListFactoriesResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listFactories } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const listFactoriesHandler: OperationHandler<'listFactories'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listFactories(ctx, principalOf(req).teamId, { limit, cursor }));
};
