/** createScheduledAgent `POST /agent/schedules` → 201 ScheduledAgentItem. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createScheduledAgent } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const createScheduledAgentHandler: OperationHandler<'createScheduledAgent'> = (ctx) => async (req, res) => {
  res.status(201).json(await createScheduledAgent(ctx, principalOf(req), req.body, auditedAs(ctx, req, res, 'schedule', 'created')));
};
