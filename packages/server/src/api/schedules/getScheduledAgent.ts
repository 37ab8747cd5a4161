/** getScheduledAgent `GET /agent/schedules/{scheduleId}` → ScheduledAgentItem. */
import { principalOf } from '../../http/auth';
import { getScheduledAgent } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const getScheduledAgentHandler: OperationHandler<'getScheduledAgent'> = (ctx) => async (req, res) => {
  res.json(await getScheduledAgent(ctx, principalOf(req).teamId, req.params.scheduleId));
};
