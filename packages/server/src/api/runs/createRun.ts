/** createRun `POST /agent/runs` (and createRunLegacy `POST /agent/run`) → 200 RunAgentResponse. */
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createRun } from '../../runs/service';
import type { OperationHandler, OperationRequestHandler } from '../operations';

/** One handler for both operations: the contract gives them the same body and answer. */
const createRunFor =
  (ctx: ServerContext): OperationRequestHandler<'createRun'> & OperationRequestHandler<'createRunLegacy'> =>
  async (req, res) => {
    res.json(await createRun(ctx, principalOf(req), req.body));
  };

export const createRunHandler: OperationHandler<'createRun'> = createRunFor;
/** The deprecated alias `POST /agent/run`. */
export const createRunLegacyHandler: OperationHandler<'createRunLegacy'> = createRunFor;
