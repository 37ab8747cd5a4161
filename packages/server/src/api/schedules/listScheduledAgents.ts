/** listScheduledAgents `GET /agent/schedules` → ListScheduledAgentsResponse, by name. */
import { principalOf } from '../../http/auth';
import { listScheduledAgents } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const listScheduledAgentsHandler: OperationHandler<'listScheduledAgents'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listScheduledAgents(ctx, principalOf(req).teamId, { limit, cursor }));
};
