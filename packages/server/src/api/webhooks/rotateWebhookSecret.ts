/** rotateWebhookSecret `POST …/webhooks/{webhookUid}/rotate-secret` → 200 WebhookWithSecret; the old secret stops at once. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { rotateWebhookSecret } from '../../webhooks/service';

export const rotateWebhookSecretHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string }> =>
  async (req, res) => {
    const { factoryUid, webhookUid } = req.params;
    const body = (req.body ?? {}) as { provider_secret?: string };
    res.json(await rotateWebhookSecret(ctx, principalOf(req).teamId, factoryUid, webhookUid, body));
  };
