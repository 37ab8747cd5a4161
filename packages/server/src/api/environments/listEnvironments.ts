/** listEnvironments `GET /agent/environments` → ListEnvironmentsResponse, newest first. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { listEnvironments } from '../../environments/service';

export const listEnvironmentsHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listEnvironments(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
