/** rotateWebhookSecret `POST …/webhooks/{webhookUid}/rotate-secret` → 200 WebhookWithSecret; the old secret stops at once. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { rotateWebhookSecret } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const rotateWebhookSecretHandler: OperationHandler<'rotateWebhookSecret'> = (ctx) => async (req, res) => {
  const { factoryUid, webhookUid } = req.params;
  res.json(
    await rotateWebhookSecret(ctx, principalOf(req).teamId, factoryUid, webhookUid, req.body ?? {}, auditedAs(ctx, req, res, 'webhook', 'secret_rotated')),
  );
};
