/**
 * Shared helpers for the webhook management and ingress tests: a tiny REST client for one API key, and a
 * sender posting raw bytes to the ingress over real HTTP.
 */
import http from 'node:http';
import { expect } from 'vitest';
import type { TestServer } from '../support/server';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function restClient(server: TestServer, apiKey: string) {
  const call = async <T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const res = await fetch(`${server.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    call,
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body),
    put: <T = any>(path: string, body?: unknown) => call<T>('PUT', path, body),
    patch: <T = any>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    delete: <T = any>(path: string) => call<T>('DELETE', path),

    async createFactory(name: string, definitionSource: 'api' | 'files' = 'api'): Promise<string> {
      const res = await call('POST', '/factories', { name, definition_source: definitionSource });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.uid as string;
    },
    async createWebhook(factoryUid: string, body: Record<string, unknown>): Promise<any> {
      const res = await call('POST', `/factories/${factoryUid}/webhooks`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
    async deliveries(factoryUid: string, webhookUid: string, query = ''): Promise<any[]> {
      const res = await call('GET', `/factories/${factoryUid}/webhooks/${webhookUid}/deliveries${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.deliveries as any[];
    },
    async delivery(factoryUid: string, webhookUid: string, deliveryId: string): Promise<any> {
      const res = await call('GET', `/factories/${factoryUid}/webhooks/${webhookUid}/deliveries/${deliveryId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
  };
}

export type RestClient = ReturnType<typeof restClient>;

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length), in pieces of this size. */
  chunked?: number;
  /** Local address to send from (e.g. 127.0.0.2: another sender address on the loopback network). */
  localAddress?: string;
}

/**
 * Sends one request to the ingress with node:http (exact bytes, exact headers, no fetch normalisation) and
 * reads the whole answer. `url` is the full ingress URL (…/webhooks/w/<uid>[/<token>]).
 */
export function send(url: string, body: string | Buffer = '', options: SendOptions = {}): Promise<Answer> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (!options.chunked) headers['content-length'] = String(bytes.length);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'POST',
        headers,
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // leave as text
          }
          resolve({ status: res.statusCode ?? 0, headers: h, body: parsed });
        });
        res.on('error', reject);
      },
    );
    // The server may answer (413) and close before the whole body is written: that is not a test failure.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') return;
      reject(err);
    });
    if (options.chunked) {
      for (let i = 0; i < bytes.length; i += options.chunked) req.write(bytes.subarray(i, i + options.chunked));
      req.end();
    } else {
      req.end(bytes);
    }
  });
}

/** Asserts an RFC 7807 problem answer of the ingress. */
export function expectProblem(res: Answer, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: `https://agent-runs.dev/errors/${code}`, status, retryable: expect.any(Boolean) });
  expect(res.body.trace_id).toBe(res.headers.get('x-request-id'));
}
