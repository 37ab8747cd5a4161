/** replayWebhookDelivery `POST …/webhooks/{webhookUid}/deliveries/{deliveryId}/replay` → ReplayDeliveryResponse (admin). */
import { auditedAs } from '../../http/audit';
import { replayWebhookDelivery } from '../../automations/replay';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const replayWebhookDeliveryHandler: OperationHandler<'replayWebhookDelivery'> = (ctx) => async (req, res) => {
  const { factoryUid, webhookUid, deliveryId } = req.params;
  res.json(
    await replayWebhookDelivery(ctx, principalOf(req).teamId, factoryUid, webhookUid, deliveryId, auditedAs(ctx, req, res, 'webhook_delivery', 'replayed')),
  );
};
