/** updateAutomation `PATCH /factories/{factoryUid}/automations/{automationUid}` → Automation. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { updateAutomation, type UpdateAutomationInput } from '../../automations/service';

export const updateAutomationHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; automationUid: string }> =>
  async (req, res) => {
    const { factoryUid, automationUid } = req.params;
    res.json(await updateAutomation(ctx, principalOf(req).teamId, factoryUid, automationUid, req.body as UpdateAutomationInput));
  };
