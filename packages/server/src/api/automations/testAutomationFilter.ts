/** testAutomationFilter `POST /factories/{factoryUid}/automations/{automationUid}/test-filter` → TestFilterResult. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { testAutomationFilter } from '../../automations/service';

export const testAutomationFilterHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; automationUid: string }> =>
  async (req, res) => {
    const { factoryUid, automationUid } = req.params;
    const { delivery_id } = req.body as { delivery_id: string };
    res.json(await testAutomationFilter(ctx, principalOf(req).teamId, factoryUid, automationUid, delivery_id));
  };
