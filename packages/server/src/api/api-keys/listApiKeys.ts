/** listApiKeys `GET /api-keys` → ListApiKeysResponse, newest first, without values. */
import { principalOf } from '../../http/auth';
import { listApiKeys } from '../../api-keys/service';
import type { OperationHandler } from '../operations';

export const listApiKeysHandler: OperationHandler<'listApiKeys'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listApiKeys(ctx.db, principalOf(req).teamId, { limit, cursor }));
};
