/** pauseScheduledAgent `POST /agent/schedules/{scheduleId}/pause` → ScheduledAgentItem (`enabled: false`). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { setScheduledAgentEnabled } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const pauseScheduledAgentHandler: OperationHandler<'pauseScheduledAgent'> = (ctx) => async (req, res) => {
  res.json(await setScheduledAgentEnabled(ctx, principalOf(req), req.params.scheduleId, false, auditedAs(ctx, req, res, 'schedule', 'paused')));
};
