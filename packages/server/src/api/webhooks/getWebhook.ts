/** getWebhook `GET /factories/{factoryUid}/webhooks/{webhookUid}` → Webhook (url_token URLs show `{token}`). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { getWebhook } from '../../webhooks/service';

export const getWebhookHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string }> =>
  async (req, res) => {
    res.json(await getWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.webhookUid));
  };
