/** testDraftFilter `POST /factories/{factoryUid}/test-filter` → TestFilterResult (a trigger not saved yet). */
import { principalOf } from '../../http/auth';
import { testDraftFilter } from '../../automations/service';
import type { OperationHandler } from '../operations';

export const testDraftFilterHandler: OperationHandler<'testDraftFilter'> = (ctx) => async (req, res) => {
  res.json(await testDraftFilter(ctx, principalOf(req).teamId, req.params.factoryUid, req.body));
};
