/** listApiKeys `GET /api-keys` → ListApiKeysResponse, newest first, without values. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { listApiKeys } from '../../api-keys/service';

export const listApiKeysHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listApiKeys(ctx.db, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
