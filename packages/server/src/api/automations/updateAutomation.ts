/** updateAutomation `PATCH /factories/{factoryUid}/automations/{automationUid}` → Automation. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { updateAutomation } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const updateAutomationHandler: OperationHandler<'updateAutomation'> = (ctx) => async (req, res) => {
  const { factoryUid, automationUid } = req.params;
  res.json(await updateAutomation(ctx, principalOf(req).teamId, factoryUid, automationUid, req.body, auditedAs(ctx, req, res, 'automation', 'updated')));
};
