/** listSecrets `GET /secrets` → ListSecretsResponse: names and timestamps, sorted by name, never values. */
import { principalOf } from '../../http/auth';
import { listSecrets } from '../../secrets/service';
import type { OperationHandler } from '../operations';

export const listSecretsHandler: OperationHandler<'listSecrets'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listSecrets(ctx, principalOf(req).teamId, { limit, cursor }));
};
