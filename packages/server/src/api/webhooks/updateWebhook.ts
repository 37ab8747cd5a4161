/** updateWebhook `PATCH /factories/{factoryUid}/webhooks/{webhookUid}` → Webhook. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { updateWebhook } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const updateWebhookHandler: OperationHandler<'updateWebhook'> = (ctx) => async (req, res) => {
  const { factoryUid, webhookUid } = req.params;
  res.json(await updateWebhook(ctx, principalOf(req).teamId, factoryUid, webhookUid, req.body, auditedAs(ctx, req, res, 'webhook', 'updated')));
};
