import { AgentRunsError, APIConnectionError, APIUserAbortError } from './error';
import { LineDecoder } from '../internal/line-decoder';
import { sleep } from '../internal/signals';

/** One dispatched Server-Sent Event (WHATWG HTML §9.2 semantics). */
export interface ServerSentEvent {
  /** `event:` field; `message` when absent. */
  event: string;
  /** `data:` lines joined with `\n`. */
  data: string;
  /** The last event id seen on the stream at dispatch time (`id:` persists across events). */
  id: string | undefined;
  /** `retry:` reconnection time in ms, when this event carried one. */
  retry: number | undefined;
}

/**
 * Parses a `text/event-stream` body. Comment lines (`:`) are ignored, multi-line `data` is joined, an
 * event without data is not dispatched, and an unterminated last event is dropped (as browsers do).
 */
export async function* parseSSE(body: ReadableStream<Uint8Array>, options: { lastEventId?: string | undefined } = {}): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new LineDecoder();
  let lastEventId = options.lastEventId;
  let event = '';
  let data: string[] = [];
  let retry: number | undefined;
  let first = true;
  let done = false;
  try {
    while (true) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        // A final line without a line end cannot complete an event; flush only for the parser state.
        decoder.flush();
        return;
      }
      for (let line of decoder.decode(chunk.value)) {
        if (first) {
          if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
          first = false;
        }
        if (line === '') {
          if (data.length > 0) {
            yield { event: event || 'message', data: data.join('\n'), id: lastEventId, retry };
          }
          event = '';
          data = [];
          retry = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        switch (field) {
          case 'event':
            event = value;
            break;
          case 'data':
            data.push(value);
            break;
          case 'id':
            if (!value.includes('\u0000')) lastEventId = value;
            break;
          case 'retry':
            if (/^\d+$/.test(value)) retry = Number(value);
            break;
          default:
          // Unknown fields are ignored.
        }
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export interface ReconnectingStreamOptions<T> {
  /** Opens the stream, sending `Last-Event-ID` when given. Throws APIError on an error status. */
  connect: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  /** Turns a raw event into what the stream yields; `undefined` skips the event. */
  transform: (event: ServerSentEvent) => T | undefined;
  /** True for the item after which the server closes the stream for good. */
  isTerminal: (item: T) => boolean;
  /** Resume after this event id. */
  lastEventId?: string | undefined;
  /** Wait before reconnecting, until the server sends `retry:`. Default 1000 ms. */
  reconnectDelayMs?: number;
  /** Consecutive reconnections that bring no event before giving up. Default 5. */
  maxReconnects?: number;
  signal?: AbortSignal | null | undefined;
}

/**
 * An async-iterable event stream that reconnects with `Last-Event-ID` when the connection drops or the
 * stream ends before a terminal event. It ends when the server closes the stream right after a terminal
 * event: a terminal event followed by more (a finished run resumed by a follow-up, replayed from an
 * earlier id) does not end it. `controller.abort()` (or the caller's signal) stops it.
 */
export class EventStream<T = ServerSentEvent> implements AsyncIterable<T> {
  readonly controller = new AbortController();
  #lastEventId: string | undefined;
  #unlink: () => void = () => {};

  constructor(private readonly options: ReconnectingStreamOptions<T>) {
    this.#lastEventId = options.lastEventId;
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) this.controller.abort(signal.reason);
      else {
        const onAbort = () => this.controller.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        this.#unlink = () => signal.removeEventListener('abort', onAbort);
      }
    }
  }

  /** Id of the last event received: pass it as `lastEventId` to resume elsewhere. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      yield* this.iterate();
    } finally {
      this.#unlink();
    }
  }

  private async *iterate(): AsyncGenerator<T> {
    const { connect, transform, isTerminal, maxReconnects = 5 } = this.options;
    const signal = this.controller.signal;
    let delay = this.options.reconnectDelayMs ?? 1000;
    let idleReconnects = 0;
    while (true) {
      if (signal.aborted) throw new APIUserAbortError();
      let received = false;
      let endedAtTerminal = false;
      let failure: unknown;
      try {
        const response = await connect(this.#lastEventId, signal);
        const contentType = response.headers.get('content-type');
        if (contentType && !contentType.toLowerCase().startsWith('text/event-stream')) {
          await response.body?.cancel().catch(() => {});
          throw new AgentRunsError(`Expected a text/event-stream response, got ${contentType}.`);
        }
        if (!response.body) throw new APIConnectionError({ message: 'Event stream response has no body.' });
        for await (const event of parseSSE(response.body, { lastEventId: this.#lastEventId })) {
          received = true;
          this.#lastEventId = event.id;
          if (event.retry !== undefined) delay = event.retry;
          const item = transform(event);
          if (item === undefined) continue;
          endedAtTerminal = isTerminal(item);
          yield item;
        }
        if (endedAtTerminal) return;
      } catch (err) {
        if (signal.aborted) throw new APIUserAbortError({ cause: err });
        // A status error (404 run not found, 401…) will not heal by reconnecting; a dropped connection may.
        if (err instanceof AgentRunsError && !(err instanceof APIConnectionError)) throw err;
        failure = err;
      }
      idleReconnects = received ? 0 : idleReconnects + 1;
      if (idleReconnects > maxReconnects) {
        throw new APIConnectionError({
          message: `Event stream closed ${idleReconnects} times in a row without events and before a terminal event.`,
          cause: failure,
        });
      }
      await sleep(delay, signal);
    }
  }
}
