/**
 * At most SSE_STREAMS_PER_KEY open event streams per API key on one server, the run streams
 * (streamRunEvents) and the team streams (streamTeamRunEvents) together: each holds a connection and a loop.
 */
import type { ServerContext } from '../../context';
import { rateLimited } from '../../problems';

/** Retry-After of the streams-per-key 429: a stream frees when its run ends or its client goes away. */
const STREAM_RETRY_AFTER_SECONDS = 5;

/** Open streams by API key, per server: both stream operations' handlers are built from the same context. */
const openStreamsByServer = new WeakMap<ServerContext, Map<string, number>>();

/** Runs `stream` in one of the key's stream slots; a key without a free slot gets 429 before anything is sent. */
export async function inEventStreamSlot(ctx: ServerContext, keyId: string, stream: () => Promise<void>): Promise<void> {
  let open = openStreamsByServer.get(ctx);
  if (!open) {
    open = new Map();
    openStreamsByServer.set(ctx, open);
  }
  const max = ctx.settings.connections.sseStreamsPerKey;
  const count = open.get(keyId) ?? 0;
  if (count >= max) {
    throw rateLimited(
      `At most ${max} event streams may be open at once per API key; retry after ${STREAM_RETRY_AFTER_SECONDS} seconds.`,
      STREAM_RETRY_AFTER_SECONDS,
    );
  }
  open.set(keyId, count + 1);
  try {
    await stream();
  } finally {
    const left = (open.get(keyId) ?? 1) - 1;
    if (left > 0) open.set(keyId, left);
    else open.delete(keyId);
  }
}
