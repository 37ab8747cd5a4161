/** deleteEnvironment `DELETE /agent/environments/{environmentId}` → 204. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteEnvironment } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const deleteEnvironmentHandler: OperationHandler<'deleteEnvironment'> = (ctx) => async (req, res) => {
  await deleteEnvironment(ctx, principalOf(req).teamId, req.params.environmentId, auditedAs(ctx, req, res, 'environment', 'deleted'));
  res.status(204).end();
};
