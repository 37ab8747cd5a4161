/** Webhooks of a factory: one line per operationId (admin changes; members read). */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { createWebhookHandler } from './createWebhook';
import { deleteWebhookHandler } from './deleteWebhook';
import { getWebhookHandler } from './getWebhook';
import { listWebhooksHandler } from './listWebhooks';
import { rotateWebhookSecretHandler } from './rotateWebhookSecret';
import { updateWebhookHandler } from './updateWebhook';

export function webhooksRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/factories/:factoryUid/webhooks', createWebhookHandler(ctx));
  router.get('/factories/:factoryUid/webhooks', listWebhooksHandler(ctx));
  router.get('/factories/:factoryUid/webhooks/:webhookUid', getWebhookHandler(ctx));
  router.patch('/factories/:factoryUid/webhooks/:webhookUid', updateWebhookHandler(ctx));
  router.delete('/factories/:factoryUid/webhooks/:webhookUid', deleteWebhookHandler(ctx));
  router.post('/factories/:factoryUid/webhooks/:webhookUid/rotate-secret', rotateWebhookSecretHandler(ctx));
  return router;
}
