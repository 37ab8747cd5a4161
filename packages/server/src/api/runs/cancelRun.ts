/** cancelRun `POST /agent/runs/{runId}/cancel` → 200 bare JSON string (the run id); 409 for a finished run. */
import { principalOf } from '../../http/auth';
import { cancelRun } from '../../runs/service';
import type { OperationHandler } from '../operations';

export const cancelRunHandler: OperationHandler<'cancelRun'> = (ctx) => async (req, res) => {
  res.json(await cancelRun(ctx, principalOf(req).teamId, req.params.runId));
};
