/** getWebhookDelivery `GET …/webhooks/{webhookUid}/deliveries/{deliveryId}` → WebhookDelivery (payload for Accepted). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getWebhookDelivery } from './service';

export const getWebhookDeliveryHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string; deliveryId: string }> =>
  async (req, res) => {
    const { factoryUid, webhookUid, deliveryId } = req.params;
    res.json(await getWebhookDelivery(ctx, principalOf(req).teamId, factoryUid, webhookUid, deliveryId));
  };
