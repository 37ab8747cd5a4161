/** getTeamBudget `GET /team/budget` → TeamBudget (budgets/service.ts). Any role. */
import { getTeamBudget } from '../../budgets/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const getTeamBudgetHandler: OperationHandler<'getTeamBudget'> = (ctx) => async (req, res) => {
  res.json(await getTeamBudget(ctx, principalOf(req).teamId));
};
