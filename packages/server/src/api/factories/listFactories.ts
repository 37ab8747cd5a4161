/** listFactories `GET /factories` → ListFactoriesResponse, newest first. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { listFactories } from '../../factories/service';

export const listFactoriesHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listFactories(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
