/**
 * A request mock of the REST API for component tests: `fetch` answers from routes written in the test,
 * with the API's wire format (JSON, `application/problem+json` problems, `text/event-stream` streams),
 * and records every request. Installed as the global fetch, which both the SDK and live.ts use.
 */
import { vi } from 'vitest';

export const API_ROOT = `${window.location.origin}/api/v1`;

type Handler = (request: Request, params: Record<string, string>) => Response | Promise<Response>;

export interface MockApi {
  /** `method path`, path relative to the API root with `:name` segments, e.g. `GET /agent/environments/:uid`. */
  on(route: string, handler: Handler): void;
  /** Every request so far, as `METHOD /path?query`. */
  readonly requests: string[];
  count(route: string): number;
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ type: `https://agent-runs.dev/errors/${code}`, title: code, status, detail, ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

/** A list answer: the items under the operation's own name (`runs`, `environments`…) and its page_info. */
export const page = (itemsKey: string, items: unknown[], nextCursor: string | null = null) =>
  json({ [itemsKey]: items, page_info: { has_next_page: nextCursor !== null, next_cursor: nextCursor } });

function matches(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(got[i]!);
    else if (segment !== got[i]) return undefined;
  }
  return params;
}

export function installMockApi(): MockApi {
  const routes: Array<{ method: string; pattern: string; handler: Handler }> = [];
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.slice(new URL(API_ROOT).pathname.length);
    requests.push(`${request.method} ${path}${url.search}`);
    for (const route of [...routes].reverse()) {
      const params = route.method === request.method ? matches(route.pattern, path) : undefined;
      if (params) return route.handler(request, params);
    }
    return problem(404, 'not_found', `No mock for ${request.method} ${path}`);
  };
  vi.stubGlobal('fetch', fetch);
  return {
    on(route, handler) {
      const [method = '', pattern = ''] = route.split(' ');
      routes.push({ method, pattern, handler });
    },
    requests,
    count: (route) => {
      const [method = '', pattern = ''] = route.split(' ');
      return requests.filter((r) => r.startsWith(`${method} `) && matches(pattern, r.slice(method.length + 1).split('?')[0]!)).length;
    },
  };
}

/** A server-sent event stream the test writes to; `response()` answers the request that opens it. */
export function eventStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  return {
    response: () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send(event: string, data: unknown) {
      controller!.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
  };
}
