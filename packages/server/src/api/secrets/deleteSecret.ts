/** deleteSecret `DELETE /secrets/{name}` → 204; 409 while a webhook names it. */
import { principalOf } from '../../http/auth';
import { deleteSecret } from '../../secrets/service';
import type { OperationHandler } from '../operations';

export const deleteSecretHandler: OperationHandler<'deleteSecret'> =
  (ctx) =>
  async (req, res) => {
    await deleteSecret(ctx, principalOf(req).teamId, req.params.name);
    res.status(204).end();
  };
