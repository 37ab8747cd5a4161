/** resumeScheduledAgent `POST /agent/schedules/{scheduleId}/resume` → ScheduledAgentItem (`enabled: true`). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { setScheduledAgentEnabled } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const resumeScheduledAgentHandler: OperationHandler<'resumeScheduledAgent'> = (ctx) => async (req, res) => {
  res.json(await setScheduledAgentEnabled(ctx, principalOf(req), req.params.scheduleId, true, auditedAs(ctx, req, res, 'schedule', 'resumed')));
};
