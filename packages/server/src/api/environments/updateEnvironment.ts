/** updateEnvironment `PATCH /agent/environments/{environmentId}` → CloudEnvironment. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { updateEnvironment } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const updateEnvironmentHandler: OperationHandler<'updateEnvironment'> = (ctx) => async (req, res) => {
  res.json(await updateEnvironment(ctx, principalOf(req), req.params.environmentId, req.body, auditedAs(ctx, req, res, 'environment', 'updated')));
};
