/** deleteWebhook `DELETE /factories/{factoryUid}/webhooks/{webhookUid}` → 204 (soft delete; the log stays readable). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { deleteWebhook } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const deleteWebhookHandler: OperationHandler<'deleteWebhook'> = (ctx) => async (req, res) => {
  await deleteWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.webhookUid, auditedAs(ctx, req, res, 'webhook', 'deleted'));
  res.status(204).end();
};
