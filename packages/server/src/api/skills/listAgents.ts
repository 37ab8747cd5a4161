/** listAgents `GET /agent` → ListAgentsResponse: the skills a run can start from (skills/agents.ts). */
import { principalOf } from '../../http/auth';
import { listAgents } from '../../skills/agents';
import type { OperationHandler } from '../operations';

export const listAgentsHandler: OperationHandler<'listAgents'> =
  (ctx) =>
  async (req, res) => {
    const repo = typeof req.query.repo === 'string' ? req.query.repo : undefined;
    res.json(
      await listAgents(ctx, principalOf(req).teamId, {
        ...(repo ? { repo } : {}),
        sortBy: req.query.sort_by === 'last_run' ? 'last_run' : 'name',
        includeMalformed: String(req.query.include_malformed_skills) === 'true',
      }),
    );
  };
