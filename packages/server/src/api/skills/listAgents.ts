/** listAgents `GET /agent` → ListAgentsResponse: the skills a run can start from (skills/agents.ts). */
import { principalOf } from '../../http/auth';
import { listAgents } from '../../skills/agents';
import type { OperationHandler } from '../operations';

export const listAgentsHandler: OperationHandler<'listAgents'> = (ctx) => async (req, res) => {
  const { repo, sort_by: sortBy, include_malformed_skills: includeMalformed } = req.query;
  res.json(
    await listAgents(ctx, principalOf(req).teamId, {
      ...(repo ? { repo } : {}),
      sortBy,
      includeMalformed,
    }),
  );
};
