import { vi } from 'vitest';

export interface RecordedCall {
  request: Request;
  /** Body text read from a clone, so the SDK's own request stays untouched. */
  body: string;
  /** Date.now() when the attempt was sent (fake-timer time in timer tests). */
  at: number;
}

export type Handler = (request: Request, index: number) => Response | Promise<Response>;

/** A fetch that records every attempt and answers with `handler`. */
export function mockFetch(handler: Handler) {
  const calls: RecordedCall[] = [];
  const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const body = request.body ? await request.clone().text() : '';
    calls.push({ request, body, at: Date.now() });
    return handler(request, calls.length - 1);
  });
  return { fetch, calls };
}

/** Answers the given responses in order (the last one repeats). */
export function sequence(...responses: Array<() => Response | Promise<Response>>): Handler {
  return (_request, index) => responses[Math.min(index, responses.length - 1)]!();
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

export function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify({
      type: `https://agent-runs.dev/errors/${code}`,
      title: code.replace(/_/g, ' '),
      status,
      detail: `detail of ${code}`,
      instance: '/api/v1/x',
      error: `${code}: detail of ${code}`,
      retryable: status === 429 || status >= 500,
      trace_id: 'req_123',
      ...extra,
    }),
    { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_123', ...headers } },
  );
}

/** A fetch that never answers until the request's signal aborts (a hung server). */
export function hangingFetch() {
  return mockFetch(
    (request) =>
      new Promise<Response>((_resolve, reject) => {
        const fail = () => reject(new DOMException('This operation was aborted', 'AbortError'));
        if (request.signal.aborted) fail();
        request.signal.addEventListener('abort', fail, { once: true });
      }),
  );
}

/** Runs fake timers until `promise` settles; answers its outcome. */
export async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let done = false;
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.then(() => (done = true));
  for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersToNextTimerAsync();
  return outcome;
}

/** A ReadableStream of the given text chunks, optionally failing (connection drop) at the end. */
export function textStream(chunks: string[], { fail = false } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!));
      else if (fail) controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
}

export function sse(chunks: string[], options: { fail?: boolean } = {}): Response {
  return new Response(textStream(chunks, options), {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
  });
}
