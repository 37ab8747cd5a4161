/** API keys of the caller's team (admin only): one line per operationId. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { createApiKeyHandler } from './createApiKey';
import { deleteApiKeyHandler } from './deleteApiKey';
import { listApiKeysHandler } from './listApiKeys';

export function apiKeysRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/api-keys', createApiKeyHandler(ctx));
  router.get('/api-keys', listApiKeysHandler(ctx));
  router.delete('/api-keys/:keyId', deleteApiKeyHandler(ctx));
  return router;
}
