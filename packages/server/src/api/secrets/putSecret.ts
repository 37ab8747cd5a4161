/** putSecret `PUT /secrets/{name}` → 200 SecretMetadata (name and timestamps, never the value). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { putSecret } from '../../secrets/service';

export const putSecretHandler =
  (ctx: ServerContext): RequestHandler<{ name: string }> =>
  async (req, res) => {
    const { value } = req.body as { value: string };
    res.json(await putSecret(ctx, principalOf(req).teamId, req.params.name, value));
  };
