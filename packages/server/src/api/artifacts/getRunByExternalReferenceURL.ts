/** getRunByExternalReferenceURL `GET /agent/run-by-external-reference?url=…` → {run_id} (as Oz). */
import { findRunByExternalReference } from '../../artifacts/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const getRunByExternalReferenceURLHandler: OperationHandler<'getRunByExternalReferenceURL'> = (ctx) => async (req, res) => {
  res.json(await findRunByExternalReference(ctx, principalOf(req).teamId, req.query.url));
};
