/** deleteWebhook `DELETE /factories/{factoryUid}/webhooks/{webhookUid}` → 204 (soft delete; the log stays readable). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { deleteWebhook } from '../../webhooks/service';

export const deleteWebhookHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string; webhookUid: string }> =>
  async (req, res) => {
    await deleteWebhook(ctx, principalOf(req).teamId, req.params.factoryUid, req.params.webhookUid);
    res.status(204).end();
  };
