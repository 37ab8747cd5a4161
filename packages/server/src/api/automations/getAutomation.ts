/** getAutomation `GET /factories/{factoryUid}/automations/{automationUid}` → Automation. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getAutomation } from '../../automations/service';

export const getAutomationHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; automationUid: string }> =>
  async (req, res) => {
    res.json(await getAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.automationUid));
  };
