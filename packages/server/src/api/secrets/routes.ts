/** Team secrets (admin only, including listing): one line per operationId. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { requireAdmin } from '../../http/auth';
import { deleteSecretHandler } from './deleteSecret';
import { listSecretsHandler } from './listSecrets';
import { putSecretHandler } from './putSecret';

export function secretsRouter(ctx: ServerContext): Router {
  const router = Router();
  router.get('/secrets', requireAdmin, listSecretsHandler(ctx));
  router.put('/secrets/:name', requireAdmin, putSecretHandler(ctx));
  router.delete('/secrets/:name', requireAdmin, deleteSecretHandler(ctx));
  return router;
}
