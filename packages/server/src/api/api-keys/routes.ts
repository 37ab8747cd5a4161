/** API keys of the caller's team (admin only): one line per operationId. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { requireAdmin } from '../../http/auth';
import { createApiKeyHandler } from './createApiKey';
import { deleteApiKeyHandler } from './deleteApiKey';
import { listApiKeysHandler } from './listApiKeys';

export function apiKeysRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/api-keys', requireAdmin, createApiKeyHandler(ctx));
  router.get('/api-keys', requireAdmin, listApiKeysHandler(ctx));
  router.delete('/api-keys/:keyId', requireAdmin, deleteApiKeyHandler(ctx));
  return router;
}
