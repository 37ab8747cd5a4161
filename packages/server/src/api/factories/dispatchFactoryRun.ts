/** dispatchFactoryRun `POST /factories/{factoryUid}/runs` → 200 RunAgentResponse (a run of the factory, source API). */
import { principalOf } from '../../http/auth';
import { createRun } from '../../runs/service';
import { requireFactory } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const dispatchFactoryRunHandler: OperationHandler<'dispatchFactoryRun'> = (ctx) => async (req, res) => {
  const principal = principalOf(req);
  const factory = await requireFactory(ctx, principal.teamId, req.params.factoryUid);
  res.json(await createRun(ctx, principal, req.body, { factoryId: factory.id }));
};
