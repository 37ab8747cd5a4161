/** deleteSecret `DELETE /secrets/{name}` → 204; 409 while a webhook names it. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteSecret } from '../../secrets/service';
import type { OperationHandler } from '../operations';

export const deleteSecretHandler: OperationHandler<'deleteSecret'> = (ctx) => async (req, res) => {
  await deleteSecret(ctx, principalOf(req).teamId, req.params.name, auditedAs(ctx, req, res, 'secret', 'deleted'));
  res.status(204).end();
};
