/** listWebhooks `GET /factories/{factoryUid}/webhooks` → ListWebhooksResponse, newest first, never secrets. */
import { principalOf } from '../../http/auth';
import { listWebhooks } from '../../webhooks/service';
import type { OperationHandler } from '../operations';

export const listWebhooksHandler: OperationHandler<'listWebhooks'> = (ctx) => async (req, res) => {
  const { limit, cursor } = req.query;
  res.json(await listWebhooks(ctx, principalOf(req).teamId, req.params.factoryUid, { limit, cursor }));
};
