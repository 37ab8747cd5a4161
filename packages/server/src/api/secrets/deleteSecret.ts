/** deleteSecret `DELETE /secrets/{name}` → 204; 409 while a webhook names it. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { deleteSecret } from '../../secrets/service';

export const deleteSecretHandler =
  (ctx: ServerContext): RequestHandler<{ name: string }> =>
  async (req, res) => {
    await deleteSecret(ctx, principalOf(req).teamId, req.params.name);
    res.status(204).end();
  };
