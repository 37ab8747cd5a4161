/** getAutomation `GET /factories/{factoryUid}/automations/{automationUid}` → Automation. */
import { principalOf } from '../../http/auth';
import { getAutomation } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const getAutomationHandler: OperationHandler<'getAutomation'> = (ctx) => async (req, res) => {
  res.json(await getAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.automationUid));
};
