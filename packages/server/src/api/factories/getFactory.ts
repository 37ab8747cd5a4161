/** getFactory `GET /factories/{factoryUid}` → Factory. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getFactory } from '../../factories/service';

export const getFactoryHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    res.json(await getFactory(ctx, principalOf(req).teamId, req.params.factoryUid));
  };
