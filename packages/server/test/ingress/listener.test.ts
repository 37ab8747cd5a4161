/**
 * Where the ingress is served: on the REST listener by default (paths under /webhooks/ never reach
 * Express), or only on its own listener when INGRESS_PORT is set.
 */
import { afterEach, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, send } from '../webhooks/helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('shares the REST listener by default', async () => {
  server = await startTestServer({ engine: false });
  expect(server.ingressUrl).toBe(server.baseUrl);
  const api = restClient(server, server.adminKey);
  const wh = await api.createWebhook(await api.createFactory('shared'), { name: 'w' });
  expect(wh.ingress_url.startsWith(`${server.baseUrl}/webhooks/w/`)).toBe(true);
  const res = await send(wh.ingress_url, '{}', { headers: { authorization: `Bearer ${wh.secret}` } });
  expect(res.status).toBe(202);
  // The REST API still answers on the same listener.
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
});

it('with INGRESS_PORT, serves the ingress on its own listener only', async () => {
  server = await startTestServer({ engine: false, env: { INGRESS_PORT: '0' } });
  expect(server.ingressUrl).not.toBe(server.baseUrl);
  const api = restClient(server, server.adminKey);
  const wh = await api.createWebhook(await api.createFactory('separate'), { name: 'w' });
  expect(wh.ingress_url.startsWith(`${server.ingressUrl}/webhooks/w/`)).toBe(true);
  const auth = { authorization: `Bearer ${wh.secret}` };
  expect((await send(wh.ingress_url, '{"on":"ingress"}', { headers: auth })).status).toBe(202);

  // The REST listener no longer serves the ingress (Express answers its own 404 for an unknown route)…
  const onRest = await send(`${server.baseUrl}${new URL(wh.ingress_url).pathname}`, '{"on":"rest"}', { headers: auth });
  expect(onRest.status).toBe(404);
  // …and the ingress listener serves nothing but the ingress.
  const restOnIngress = await send(`${server.ingressUrl}/api/v1/factories`, '', { method: 'GET', headers: { authorization: `Bearer ${server.adminKey}` } });
  expect(restOnIngress.status).toBe(404);
  expect((await api.deliveries(wh.factory_uid, wh.uid)).map((d) => d.label)).toEqual(['Accepted']);
});
