/** deleteApiKey `DELETE /api-keys/{keyId}` → 204; the key gets 401 from then on. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteApiKey } from '../../api-keys/service';
import type { OperationHandler } from '../operations';

export const deleteApiKeyHandler: OperationHandler<'deleteApiKey'> = (ctx) => async (req, res) => {
  await deleteApiKey(ctx.db, ctx.clock, principalOf(req).teamId, req.params.keyId, auditedAs(ctx, req, res, 'api_key', 'revoked'));
  res.status(204).end();
};
