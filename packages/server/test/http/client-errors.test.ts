/**
 * node:http's own refusals answered as problems (src/http/client-errors.ts), over raw sockets on the REST
 * listener and the INGRESS_PORT one: malformed HTTP and made-up methods 400, oversized headers 431, slow
 * headers and slow bodies 408, CONNECT 400 — each an RFC 7807 problem with `x-request-id` and
 * `Connection: close`, echoing nothing of the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/http';
import { asHttpResponse, raw, type RawAnswer } from '../support/raw-http';
import { startTestServer, type TestServer } from '../support/server';
import { restClient } from '../webhooks/helpers';

/** Marks the request bytes: an answer that contains it echoed the request. */
const MARKER = 'hostile-marker';

/** Asserts the problem answer node:http's refusals get, and that it echoes nothing of the request. */
function expectRefusal(res: RawAnswer, status: number, code: string): void {
  expectProblem(asHttpResponse(res), status, code);
  expect(res.headers.connection).toBe('close');
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(JSON.parse(res.body).instance).toBe('*');
  expect(res.body).not.toContain(MARKER);
}

describe('node:http refusals are problems', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      engine: false,
      env: { INGRESS_PORT: '0', HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' },
    });
  });
  afterAll(() => server?.close());

  const listeners = [
    ['REST', () => server.baseUrl, '/api/v1/agent/runs'],
    ['ingress', () => server.ingressUrl, '/webhooks/w/wh_x'],
  ] as const;

  it.each(listeners)('%s listener: a malformed request line and a made-up method answer 400 invalid_request', async (_name, urlOf, path) => {
    expectRefusal(await raw(urlOf(), `${MARKER} \x01 nonsense\r\n\r\n`), 400, 'invalid_request');
    expectRefusal(await raw(urlOf(), `GET /${MARKER} HTTP/1.1\r\nHost: test\r\nBad Header ${MARKER}\r\n\r\n`), 400, 'invalid_request');
    const madeUp = await raw(urlOf(), `FROBNICATE ${path}?${MARKER} HTTP/1.1\r\nHost: test\r\n\r\n`);
    expectRefusal(madeUp, 400, 'invalid_request');
    expect(JSON.parse(madeUp.body).detail).toMatch(/method/);
  });

  it.each(listeners)('%s listener: CONNECT answers 400 invalid_request (this server is no proxy)', async (_name, urlOf) => {
    expectRefusal(await raw(urlOf(), `CONNECT ${MARKER}.example:443 HTTP/1.1\r\nHost: ${MARKER}.example:443\r\n\r\n`), 400, 'invalid_request');
  });

  it.each(listeners)('%s listener: a 64 KB header answers 431 request_header_fields_too_large', async (_name, urlOf, path) => {
    const res = await raw(urlOf(), `POST ${path} HTTP/1.1\r\nHost: test\r\nX-Huge: ${MARKER}${'h'.repeat(64 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`);
    expectRefusal(res, 431, 'request_header_fields_too_large');
    expect(JSON.parse(res.body).retryable).toBe(false);
  });

  it.each(listeners)('%s listener: headers that never finish answer 408 request_timeout (retryable)', async (_name, urlOf, path) => {
    const res = await raw(urlOf(), `POST ${path} HTTP/1.1\r\nHost: test\r\nX-Request-Id: ${MARKER}\r\n`, { drip: 'X-Slow: 1\r\n' });
    expectRefusal(res, 408, 'request_timeout');
    expect(JSON.parse(res.body).retryable).toBe(true);
    // The request was never read: its x-request-id is not taken.
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.ms).toBeLessThan(3_500); // 1 s, plus up to 1 s until node:http checks
  });

  it('a slow body answers 408 request_timeout under the request id already given to its response', async () => {
    const api = restClient(server, server.adminKey);
    const wh = await api.createWebhook(await api.createFactory('slow-body'), { name: 'slow-body' });
    const head = (path: string, auth: string, requestId: string) =>
      `POST ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${auth}\r\nX-Request-Id: ${requestId}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"`;
    const [ingress, rest] = await Promise.all([
      raw(server.ingressUrl, head(new URL(wh.ingress_url).pathname, wh.secret as string, 'slow-ingress-1'), { drip: 'x' }),
      raw(server.baseUrl, head('/api/v1/agent/runs', server.adminKey, 'slow-rest-1'), { drip: 'x' }),
    ]);
    expectRefusal(ingress, 408, 'request_timeout');
    expect(ingress.headers['x-request-id']).toBe('slow-ingress-1');
    expectRefusal(rest, 408, 'request_timeout');
    expect(rest.headers['x-request-id']).toBe('slow-rest-1');
  });

  it('a keep-alive connection answered once still gets the problem for a malformed second request', async () => {
    // The malformed request goes out 200 ms after the first, once the health check is answered.
    const res = await raw(server.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n', { drip: `${MARKER} nonsense\r\n\r\n` });
    expect(res.status).toBe(200);
    const second = res.body.slice(res.body.indexOf('HTTP/1.1 '));
    expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(second).toContain('"type":"https://agent-runs.dev/errors/invalid_request"');
    expect(second).not.toContain(MARKER);
  });
});
