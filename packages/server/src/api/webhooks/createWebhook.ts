/** createWebhook `POST /factories/{factoryUid}/webhooks` → 201 WebhookWithSecret (the secret shown this once). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createWebhook } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const createWebhookHandler: OperationHandler<'createWebhook'> = (ctx) => async (req, res) => {
  const webhook = await createWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.body, auditedAs(ctx, req, res, 'webhook', 'created'));
  res.status(201).json(webhook);
};
