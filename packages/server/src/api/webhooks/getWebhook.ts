/** getWebhook `GET /factories/{factoryUid}/webhooks/{webhookUid}` → Webhook (url_token URLs show `{token}`). */
import { principalOf } from '../../http/auth';
import { getWebhook } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const getWebhookHandler: OperationHandler<'getWebhook'> = (ctx) => async (req, res) => {
  res.json(await getWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.webhookUid));
};
