/** listWebhookDeliveries `GET …/webhooks/{webhookUid}/deliveries` → ListWebhookDeliveriesResponse, newest first, no payloads. */
import { principalOf } from '../../http/auth';
import { listWebhookDeliveries } from '../../webhooks/deliveries/service';
import type { OperationHandler } from '../operations';

export const listWebhookDeliveriesHandler: OperationHandler<'listWebhookDeliveries'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  const { factoryUid, webhookUid } = req.params;
  res.json(await listWebhookDeliveries(ctx, principalOf(req).teamId, factoryUid, webhookUid, { limit, cursor }));
};
