/**
 * Following the server's event streams from a page: a stream that fails is opened again after a growing,
 * jittered delay, and the page shows whether it is live.
 */
import { APIError, type AgentRuns, type EventStream, type RunEvent } from '@agent-runs/sdk';
import { useEffect, useRef, useState } from 'react';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed';

/** 1 s, 2 s, 4 s … up to 30 s, ±20 %: many tabs reconnecting after a restart do not arrive at once. */
export function reconnectDelayMs(failures: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(failures, 5));
  return base * (0.8 + Math.random() * 0.4);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * A client whose requests call `onOpen` once the server has answered them with success. Used for event
 * streams: the SDK reconnects a dropped stream by itself, and each (re)connection is when a page must
 * re-read what the stream does not replay.
 */
export function clientNoticingOpens(client: AgentRuns, onOpen: () => void): AgentRuns {
  return client.withOptions({
    fetch: async (input, init) => {
      const response = await window.fetch(input, init);
      if (response.ok) onOpen();
      return response;
    },
  });
}

interface FollowOptions {
  /** Opens the stream (again); `client` notices each (re)connection. */
  open(client: AgentRuns): EventStream<RunEvent>;
  onEvent(event: RunEvent): void;
  /** Each successful (re)connection. */
  onOpen?(): void;
  /** The stream ended by itself (a run's stream after its terminal state): it is not opened again. */
  onEnd?(): void;
}

/**
 * Follows a stream while the component is mounted and `enabled`; a failure waits (backoff) and opens it
 * again, unless the server refused it (a 4xx other than 429). Returns whether it is live and the last failure. The options are read through a ref, so new
 * callbacks on every render do not reopen the stream; change `key` to reopen it.
 */
export function useEventStream(client: AgentRuns, key: unknown, enabled: boolean, options: FollowOptions) {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [failure, setFailure] = useState<unknown>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!enabled) return;
    setStatus('connecting');
    const stop = new AbortController();
    let stream: EventStream<RunEvent> | undefined;
    const noticing = clientNoticingOpens(client, () => {
      if (stop.signal.aborted) return;
      setStatus('live');
      setFailure(null);
      latest.current.onOpen?.();
    });
    void (async () => {
      for (let failures = 0; !stop.signal.aborted; failures++) {
        try {
          stream = latest.current.open(noticing);
          for await (const event of stream) {
            failures = 0;
            latest.current.onEvent(event);
          }
          if (stop.signal.aborted) return;
          setStatus('ended');
          latest.current.onEnd?.();
          return;
        } catch (err) {
          if (stop.signal.aborted) return;
          setFailure(err);
          // Refused (not found, key revoked…): asking again will not help. Too many streams (429) may pass.
          if (err instanceof APIError && err.status !== undefined && err.status < 500 && err.status !== 429) {
            setStatus('failed');
            return;
          }
          setStatus('reconnecting');
          await sleep(reconnectDelayMs(failures), stop.signal);
        }
      }
    })();
    return () => {
      stop.abort();
      stream?.controller.abort();
    };
  }, [client, key, enabled]);

  return { status, failure };
}
