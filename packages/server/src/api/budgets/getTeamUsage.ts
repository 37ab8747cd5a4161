/** getTeamUsage `GET /usage?month=YYYY-MM` → TeamUsage (budgets/service.ts). Any role. */
import { getTeamUsage } from '../../budgets/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const getTeamUsageHandler: OperationHandler<'getTeamUsage'> = (ctx) => async (req, res) => {
  res.json(await getTeamUsage(ctx, principalOf(req).teamId, req.query.month));
};
