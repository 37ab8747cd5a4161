/** createWebhook `POST /factories/{factoryUid}/webhooks` → 201 WebhookWithSecret (the secret shown this once). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createWebhook, type CreateWebhookInput } from '../../webhooks/service';

export const createWebhookHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    const webhook = await createWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.body as CreateWebhookInput);
    res.status(201).json(webhook);
  };
