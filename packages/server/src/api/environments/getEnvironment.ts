/** getEnvironment `GET /agent/environments/{environmentId}` → CloudEnvironment. */
import { principalOf } from '../../http/auth';
import { getEnvironment } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const getEnvironmentHandler: OperationHandler<'getEnvironment'> = (ctx) => async (req, res) => {
  res.json(await getEnvironment(ctx, principalOf(req).teamId, req.params.environmentId));
};
