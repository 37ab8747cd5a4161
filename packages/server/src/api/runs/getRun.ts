/** getRun `GET /agent/runs/{runId}` → RunItem. */
import { principalOf } from '../../http/auth';
import { getRun } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const getRunHandler: OperationHandler<'getRun'> = (ctx) => async (req, res) => {
  res.json(await getRun(ctx, principalOf(req).teamId, req.params.runId));
};
