/** testDraftFilter `POST /factories/{factoryUid}/test-filter` → TestFilterResult (a trigger not saved yet). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { testDraftFilter } from '../../automations/service';

export const testDraftFilterHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    res.json(await testDraftFilter(ctx, principalOf(req).teamId, req.params.factoryUid, req.body as { delivery_id: string; trigger: unknown }));
  };
