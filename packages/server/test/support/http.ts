/**
 * A tiny HTTP client for server tests (real fetch over loopback) and the assertions every problem answer
 * must pass (docs/wire.md §Errors).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'vitest';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON (application/json or application/problem+json), else undefined. */
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (not JSON-encoded). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiClient {
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, headers?: Record<string, string>): Promise<HttpResponse<T>>;
}

/** Client for `baseUrl` (e.g. server.apiUrl) sending `Authorization: Bearer <apiKey>` when given. */
export function apiClient(baseUrl: string, apiKey?: string): ApiClient {
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> => {
    const headers: Record<string, string> = { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const res = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body: body as string } : {}) });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const parsed = /json/.test(type) && text !== '' ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return {
    request,
    get: (path, headers) => request('GET', path, headers ? { headers } : {}),
    post: (path, body, headers) => request('POST', path, { ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) }),
    delete: (path, headers) => request('DELETE', path, headers ? { headers } : {}),
  };
}

/** Asserts an RFC 7807 answer with this status and code, shaped as docs/wire.md §Errors says. */
export function expectProblem(res: HttpResponse, status: number, code: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { status } });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = res.body as Record<string, unknown>;
  expect(body.type).toBe(`https://agent-runs.dev/errors/${code}`);
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.error).toBe(`${String(body.title)}: ${String(body.detail)}`);
  expect(typeof body.instance).toBe('string');
  expect(typeof body.retryable).toBe('boolean');
  expect(body.trace_id).toBe(res.headers.get('x-request-id'));
  expect(res.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|stack/i);
  if ((status === 409 || status === 422) && body.retryable === false) expect(res.headers.get('x-should-retry')).toBe('false');
  if (status === 429 || status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
}

/** Polls GET /agent/runs/{id} until its state is one of `states` (fails after `timeoutMs`). */
export async function waitForRunState(client: ApiClient, runId: string, states: string[], timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/agent/runs/${runId}`);
    if (res.status === 200 && states.includes(res.body.state)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${states.join('/')} (last: ${res.status} ${res.body?.state})`);
    await delay(20);
  }
}

export interface SseEvent {
  id?: number;
  event?: string;
  data?: any;
  /** A comment line (`: keepalive`). */
  comment?: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Events (and comments) received so far, in order. */
  events: SseEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once `predicate` holds for the events received (rejects after timeoutMs). */
  waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens an SSE stream with fetch and parses it incrementally. */
export async function openSse(url: string, apiKey: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let buffer = '';
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, sep);
          buffer = buffer.slice(sep + 2);
          const event: SseEvent = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) event.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) event.id = Number(line.slice(4));
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
          }
          events.push(event);
          notify();
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    } finally {
      notify();
    }
  })();
  let done = false;
  void ended.finally(() => {
    done = true;
    notify();
  });
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            cleanup();
            resolve();
          } else if (done) {
            cleanup();
            reject(new Error(`stream ended before the condition held: ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting on the stream: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
