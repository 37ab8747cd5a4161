/** getWebhookDelivery `GET …/webhooks/{webhookUid}/deliveries/{deliveryId}` → WebhookDelivery (payload for Accepted). */
import { principalOf } from '../../http/auth';
import { getWebhookDelivery, RawJsonPayload } from '../../webhooks/deliveries/service';
import type { OperationHandler } from '../operations';

export const getWebhookDeliveryHandler: OperationHandler<'getWebhookDelivery'> = (ctx) => async (req, res) => {
  const { factoryUid, webhookUid, deliveryId } = req.params;
  const view = await getWebhookDelivery(ctx, principalOf(req).teamId, factoryUid, webhookUid, deliveryId);
  if (view.payload instanceof RawJsonPayload) {
    // The stored text is JSON the ingress parsed: it goes into the answer unchanged.
    const { payload, ...rest } = view;
    res.type('application/json').send(`${JSON.stringify(rest).slice(0, -1)},"payload":${payload.text}}`);
    return;
  }
  res.json(view);
};
