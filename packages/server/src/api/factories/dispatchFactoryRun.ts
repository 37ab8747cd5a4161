/** dispatchFactoryRun `POST /factories/{factoryUid}/runs` → 200 RunAgentResponse (a run of the factory, source API). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createRun, type CreateRunInput } from '../../runs/service';
import { requireFactory } from '../../factories/service';

export const dispatchFactoryRunHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    const principal = principalOf(req);
    const factory = await requireFactory(ctx, principal.teamId, req.params.factoryUid);
    res.json(await createRun(ctx, principal, req.body as CreateRunInput, { factoryId: factory.id }));
  };
