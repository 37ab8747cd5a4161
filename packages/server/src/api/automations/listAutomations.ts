/** listAutomations `GET /factories/{factoryUid}/automations` → ListAutomationsResponse, newest first. */
import { principalOf } from '../../http/auth';
import { listAutomations } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const listAutomationsHandler: OperationHandler<'listAutomations'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listAutomations(ctx, principalOf(req).teamId, req.params.factoryUid, { limit, cursor }));
};
