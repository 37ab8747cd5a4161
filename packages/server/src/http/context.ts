/** What the HTTP layer is handed: the domain's server context and the HTTP layer's own process-wide state. */
import type { ServerContext } from '../context';
import type { EventStreamSlots } from './event-stream-slots';

export interface HttpContext extends ServerContext {
  /** Open SSE streams per API key (SSE_STREAMS_PER_KEY), run and team streams together (event-stream-slots.ts). */
  eventStreamSlots: EventStreamSlots;
}
