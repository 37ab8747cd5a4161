/** applyFactoryDefinitions `POST /factories/{factoryUid}/definitions/apply` → ApplyDefinitionsResponse (admin, files factories). */
import { auditedAs } from '../../http/audit';
import { applyFactoryDefinitions } from '../../automations/definitions';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const applyFactoryDefinitionsHandler: OperationHandler<'applyFactoryDefinitions'> = (ctx) => async (req, res) => {
  res.json(
    await applyFactoryDefinitions(
      ctx,
      principalOf(req).teamId,
      req.params.factoryUid,
      req.body.files,
      auditedAs(ctx, req, res, 'factory', 'definitions_applied'),
    ),
  );
};
