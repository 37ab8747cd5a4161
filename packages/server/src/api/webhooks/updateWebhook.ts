/** updateWebhook `PATCH /factories/{factoryUid}/webhooks/{webhookUid}` → Webhook. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { updateWebhook, type UpdateWebhookInput } from '../../webhooks/service';

export const updateWebhookHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string }> =>
  async (req, res) => {
    const { factoryUid, webhookUid } = req.params;
    res.json(await updateWebhook(ctx, principalOf(req).teamId, factoryUid, webhookUid, req.body as UpdateWebhookInput));
  };
