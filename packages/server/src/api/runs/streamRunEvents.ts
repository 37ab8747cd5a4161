/** streamRunEvents `GET /agent/runs/{runId}/events` → text/event-stream (see ./event-stream.ts). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { invalidRequest } from '../../http/problem';
import { streamRunEvents } from './event-stream';

export const streamRunEventsHandler =
  (ctx: ServerContext): RequestHandler<{ runId: string }> =>
  async (req, res) => {
    const header = req.get('last-event-id');
    if (header !== undefined && !/^\d{1,15}$/.test(header)) {
      throw invalidRequest('Last-Event-ID must be a non-negative integer.', [{ path: 'header.Last-Event-ID', message: 'must be an integer ≥ 0' }]);
    }
    await streamRunEvents(ctx, res, principalOf(req).teamId, req.params.runId, header === undefined ? undefined : Number(header));
  };
