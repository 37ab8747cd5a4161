/** deleteScheduledAgent `DELETE /agent/schedules/{scheduleId}` → 200 `{success: true}` (as the Oz API answers). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteScheduledAgent } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const deleteScheduledAgentHandler: OperationHandler<'deleteScheduledAgent'> = (ctx) => async (req, res) => {
  res.json(await deleteScheduledAgent(ctx, principalOf(req).teamId, req.params.scheduleId, auditedAs(ctx, req, res, 'schedule', 'deleted')));
};
