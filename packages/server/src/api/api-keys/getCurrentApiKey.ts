/** getCurrentApiKey `GET /api-keys/current` → CurrentApiKey: the calling key and its team, for any role. */
import { principalOf } from '../../http/auth';
import { currentApiKey } from '../../api-keys/service';
import type { OperationHandler } from '../operations';

export const getCurrentApiKeyHandler: OperationHandler<'getCurrentApiKey'> = (ctx) => async (req, res) => {
  res.json(await currentApiKey(ctx.db, principalOf(req)));
};
