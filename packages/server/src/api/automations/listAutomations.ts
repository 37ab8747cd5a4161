/** listAutomations `GET /factories/{factoryUid}/automations` → ListAutomationsResponse, newest first. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { listAutomations } from '../../automations/service';

export const listAutomationsHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listAutomations(ctx, principalOf(req).teamId, req.params.factoryUid, { limit, ...(cursor ? { cursor } : {}) }));
  };
