/** putSecret `PUT /secrets/{name}` → 200 SecretMetadata (name and timestamps, never the value). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { putSecret } from '../../secrets/service';
import type { OperationHandler } from '../operations';

export const putSecretHandler: OperationHandler<'putSecret'> = (ctx) => async (req, res) => {
  res.json(await putSecret(ctx, principalOf(req).teamId, req.params.name, req.body.value, auditedAs(ctx, req, res, 'secret', 'updated')));
};
