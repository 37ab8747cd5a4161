/** updateScheduledAgent `PUT /agent/schedules/{scheduleId}` → ScheduledAgentItem (the whole new definition). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { updateScheduledAgent } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const updateScheduledAgentHandler: OperationHandler<'updateScheduledAgent'> = (ctx) => async (req, res) => {
  res.json(await updateScheduledAgent(ctx, principalOf(req), req.params.scheduleId, req.body, auditedAs(ctx, req, res, 'schedule', 'updated')));
};
