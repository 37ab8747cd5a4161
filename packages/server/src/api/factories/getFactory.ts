/** getFactory `GET /factories/{factoryUid}` → Factory. */
import { principalOf } from '../../http/auth';
import { getFactory } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const getFactoryHandler: OperationHandler<'getFactory'> = (ctx) => async (req, res) => {
  res.json(await getFactory(ctx, principalOf(req).teamId, req.params.factoryUid));
};
