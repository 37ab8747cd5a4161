/** listAutomations `GET /factories/{factoryUid}/automations` → ListAutomationsResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listAutomations } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const listAutomationsHandler: OperationHandler<'listAutomations'> =
  (ctx) =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 50);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listAutomations(ctx, principalOf(req).teamId, req.params.factoryUid, { limit, ...(cursor ? { cursor } : {}) }));
  };
