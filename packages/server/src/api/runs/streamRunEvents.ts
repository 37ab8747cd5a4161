/** streamRunEvents `GET /agent/runs/{runId}/events` → text/event-stream (see ./event-stream.ts). */
import { principalOf } from '../../http/auth';
import { invalidRequest, rateLimited } from '../../problems';
import { streamRunEvents } from './event-stream';
import type { OperationHandler } from '../operations';

/** Retry-After of the streams-per-key 429: a stream frees when its run ends or its client goes away. */
const STREAM_RETRY_AFTER_SECONDS = 5;

export const streamRunEventsHandler: OperationHandler<'streamRunEvents'> =
  (ctx) => {
  // Open streams per API key in this process (SSE_STREAMS_PER_KEY): each one holds a connection and a poller.
  const open = new Map<string, number>();
  const max = ctx.settings.connections.sseStreamsPerKey;
  return async (req, res) => {
    const header = req.get('last-event-id');
    if (header !== undefined && !/^\d{1,15}$/.test(header)) {
      throw invalidRequest('Last-Event-ID must be a non-negative integer.', [{ path: 'header.Last-Event-ID', message: 'must be an integer ≥ 0' }]);
    }
    const { teamId, keyId } = principalOf(req);
    const count = open.get(keyId) ?? 0;
    if (count >= max) {
      throw rateLimited(
        `At most ${max} event streams may be open at once per API key; retry after ${STREAM_RETRY_AFTER_SECONDS} seconds.`,
        STREAM_RETRY_AFTER_SECONDS,
      );
    }
    open.set(keyId, count + 1);
    try {
      await streamRunEvents(ctx, res, teamId, req.params.runId, header === undefined ? undefined : Number(header));
    } finally {
      const left = (open.get(keyId) ?? 1) - 1;
      if (left > 0) open.set(keyId, left);
      else open.delete(keyId);
    }
  };
};
