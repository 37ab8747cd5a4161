/** replayWebhookDelivery `POST …/webhooks/{webhookUid}/deliveries/{deliveryId}/replay` → ReplayDeliveryResponse (admin). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { replayWebhookDelivery } from '../../automations/replay';
import { principalOf } from '../../http/auth';

export const replayWebhookDeliveryHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string; deliveryId: string }> =>
  async (req, res) => {
    const { factoryUid, webhookUid, deliveryId } = req.params;
    res.json(await replayWebhookDelivery(ctx, principalOf(req).teamId, factoryUid, webhookUid, deliveryId));
  };
