/** deleteApiKey `DELETE /api-keys/{keyId}` → 204; the key gets 401 from then on. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { deleteApiKey } from '../../api-keys/service';

export const deleteApiKeyHandler =
  (ctx: ServerContext): RequestHandler<{ keyId: string }> =>
  async (req, res) => {
    await deleteApiKey(ctx.db, ctx.clock, principalOf(req).teamId, req.params.keyId);
    res.status(204).end();
  };
