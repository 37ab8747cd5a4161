/** Team secrets (admin only, including listing): one line per operationId. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { deleteSecretHandler } from './deleteSecret';
import { listSecretsHandler } from './listSecrets';
import { putSecretHandler } from './putSecret';

export function secretsRouter(ctx: ServerContext): Router {
  const router = Router();
  router.get('/secrets', listSecretsHandler(ctx));
  router.put('/secrets/:name', putSecretHandler(ctx));
  router.delete('/secrets/:name', deleteSecretHandler(ctx));
  return router;
}
