/** updateTeamBudget `PUT /team/budget` → TeamBudget (budgets/service.ts). Admin only (x-required-role). */
import { auditedAs } from '../../http/audit';
import { updateTeamBudget } from '../../budgets/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const updateTeamBudgetHandler: OperationHandler<'updateTeamBudget'> = (ctx) => async (req, res) => {
  res.json(await updateTeamBudget(ctx, principalOf(req).teamId, req.body, auditedAs(ctx, req, res, 'team_budget', 'updated')));
};
