/** deleteAutomation `DELETE /factories/{factoryUid}/automations/{automationUid}` → 204. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteAutomation } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const deleteAutomationHandler: OperationHandler<'deleteAutomation'> = (ctx) => async (req, res) => {
  await deleteAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.automationUid, auditedAs(ctx, req, res, 'automation', 'deleted'));
  res.status(204).end();
};
