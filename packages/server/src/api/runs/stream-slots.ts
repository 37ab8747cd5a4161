/** The per-key limit of open event streams (ctx.eventStreamSlots) as the two stream operations apply it. */
import type { HttpContext } from '../../http/context';
import { rateLimited } from '../../problems';

/** Retry-After of the streams-per-key 429: a stream frees when its run ends or its client goes away. */
const STREAM_RETRY_AFTER_SECONDS = 5;

/**
 * Runs `stream` in one of the key's stream slots; a key without a free slot gets 429 before anything is
 * sent. Revoking the key aborts the signal the stream is given: it then ends its response.
 */
export async function inEventStreamSlot(ctx: HttpContext, keyId: string, stream: (stop: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const release = ctx.eventStreamSlots.take(keyId, () => stop.abort());
  if (!release) {
    throw rateLimited(
      `At most ${ctx.eventStreamSlots.perKey} event streams may be open at once per API key; retry after ${STREAM_RETRY_AFTER_SECONDS} seconds.`,
      STREAM_RETRY_AFTER_SECONDS,
    );
  }
  try {
    await stream(stop.signal);
  } finally {
    release();
  }
}
