/** deleteAutomation `DELETE /factories/{factoryUid}/automations/{automationUid}` → 204. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { deleteAutomation } from '../../automations/service';

export const deleteAutomationHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; automationUid: string }> =>
  async (req, res) => {
    await deleteAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.automationUid);
    res.status(204).end();
  };
