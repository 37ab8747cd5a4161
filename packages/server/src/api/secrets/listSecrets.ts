/** listSecrets `GET /secrets` → ListSecretsResponse: names and timestamps, sorted by name, never values. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { listSecrets } from '../../secrets/service';

export const listSecretsHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listSecrets(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
