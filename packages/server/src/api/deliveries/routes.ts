/** The delivery log of a webhook: one line per operationId (members may read). */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { getWebhookDeliveryHandler } from './getWebhookDelivery';
import { listWebhookDeliveriesHandler } from './listWebhookDeliveries';
import { replayWebhookDeliveryHandler } from './replayWebhookDelivery';

export function deliveriesRouter(ctx: ServerContext): Router {
  const router = Router();
  router.get('/factories/:factoryUid/webhooks/:webhookUid/deliveries', listWebhookDeliveriesHandler(ctx));
  router.get('/factories/:factoryUid/webhooks/:webhookUid/deliveries/:deliveryId', getWebhookDeliveryHandler(ctx));
  router.post('/factories/:factoryUid/webhooks/:webhookUid/deliveries/:deliveryId/replay', replayWebhookDeliveryHandler(ctx));
  return router;
}
