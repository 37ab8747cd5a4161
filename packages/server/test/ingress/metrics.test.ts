/**
 * /metrics covers the ingress too: every answer under its route pattern (no uids or tokens in labels),
 * and every delivery written to the log counted by its label.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../src/http/metrics-access';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, send } from '../webhooks/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: false });
});
afterAll(() => server?.close());

it('counts ingress answers by status and logged deliveries by label', async () => {
  const api = restClient(server, server.adminKey);
  const wh = await api.createWebhook(await api.createFactory('metrics'), { name: 'w' });
  const auth = { authorization: `Bearer ${wh.secret}` };
  expect((await send(wh.ingress_url, '{"n":1}', { headers: auth })).status).toBe(202);
  expect((await send(wh.ingress_url, '{"n":1}', { headers: auth })).status).toBe(202); // duplicate
  expect((await send(wh.ingress_url, '{"n":2}', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  expect((await send(wh.ingress_url, 'not json', { headers: auth })).status).toBe(400);
  expect((await send(wh.ingress_url, '', { method: 'GET' })).status).toBe(405);

  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  expect(text).toContain('# TYPE webhook_deliveries_total counter');
  expect(text).toContain('webhook_deliveries_total{label="Accepted"} 1');
  expect(text).toContain('webhook_deliveries_total{label="Duplicate"} 1');
  expect(text).toContain('webhook_deliveries_total{label="Rejected (auth)"} 1');
  expect(text).toContain('webhook_deliveries_total{label="Rejected (invalid JSON)"} 1');
  expect(text).toContain('http_requests_total{method="POST",route="/webhooks/w/{webhookUid}",status="202"} 2');
  expect(text).toContain('http_requests_total{method="GET",route="/webhooks/w/{webhookUid}",status="405"} 1');
  expect(text).not.toContain(wh.uid);
  expect(text).not.toContain(wh.secret);
});

it('with METRICS_TOKEN set, /metrics answers only the bearer of that token (401 problem otherwise)', async () => {
  const guarded = await startTestServer({ engine: false, env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
  try {
    const bare = await fetch(`${guarded.baseUrl}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: `Bearer ${guarded.adminKey}` } })).status).toBe(401);
    const scraped = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer scrape-token-0123456789' } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('# TYPE');
  } finally {
    await guarded.close();
  }
});

it('without METRICS_TOKEN, /metrics answers loopback clients only', () => {
  for (const address of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
  for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', '2001:db8::1', '::', undefined]) expect(isLoopbackAddress(address), address).toBe(false);
});
