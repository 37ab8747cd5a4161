/** createAutomation `POST /factories/{factoryUid}/automations` → 201 Automation. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createAutomation } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const createAutomationHandler: OperationHandler<'createAutomation'> = (ctx) => async (req, res) => {
  res
    .status(201)
    .json(await createAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.body, auditedAs(ctx, req, res, 'automation', 'created')));
};
