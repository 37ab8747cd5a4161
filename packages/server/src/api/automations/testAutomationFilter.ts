/** testAutomationFilter `POST /factories/{factoryUid}/automations/{automationUid}/test-filter` → TestFilterResult. */
import { principalOf } from '../../http/auth';
import { testAutomationFilter } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const testAutomationFilterHandler: OperationHandler<'testAutomationFilter'> = (ctx) => async (req, res) => {
  const { factoryUid, automationUid } = req.params;
  res.json(await testAutomationFilter(ctx, principalOf(req).teamId, factoryUid, automationUid, req.body.delivery_id));
};
