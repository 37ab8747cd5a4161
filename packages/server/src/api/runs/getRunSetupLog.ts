/** getRunSetupLog `GET /agent/runs/{runId}/setup-log` (admin only) → what the run's setup commands printed. */
import { principalOf } from '../../http/auth';
import { getRunSetupLog } from '../../runs/setup-log';
import type { OperationHandler } from '../operations';

export const getRunSetupLogHandler: OperationHandler<'getRunSetupLog'> = (ctx) => async (req, res) => {
  res.json(await getRunSetupLog(ctx.db, principalOf(req).teamId, req.params.runId));
};
