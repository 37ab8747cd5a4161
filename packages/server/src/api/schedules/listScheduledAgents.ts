/** listScheduledAgents `GET /agent/schedules` → ListScheduledAgentsResponse, by name. */
import { principalOf } from '../../http/auth';
import { listScheduledAgents } from '../../schedules/service';
import type { OperationHandler } from '../operations';

export const listScheduledAgentsHandler: OperationHandler<'listScheduledAgents'> =
  (ctx) =>
  async (req, res) => {
    const limit = Number(req.query.limit ?? 500);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    res.json(await listScheduledAgents(ctx, principalOf(req).teamId, { limit, ...(cursor ? { cursor } : {}) }));
  };
