/**
 * The ingress over real HTTP, on SQLite and PostgreSQL: every status with its log label, the check order of
 * docs/wire.md §Factory side, body limits, credentials per mode, identity and dedup, and the two limits.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { expectProblem, restClient, send, type RestClient } from '../webhooks/helpers';

const MAX = 262_144;
const githubSignature = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Starts a chunked POST and holds its body back until `release(rest)`, so many requests can be in flight at
 * once however fast the server is. `status` settles with the answer's status.
 */
function heldSend(url: string, headers: Record<string, string>, first: string) {
  const target = new URL(url);
  const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent: false });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // An answer before the body is complete closes the connection: writing the rest may then fail.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
  });
  req.write(first);
  return { status, release: (rest: string | Buffer) => req.end(rest) };
}

describe.each(testDatabases())('webhook ingress (%s)', (kind) => {
  let server: TestServer;
  let api: RestClient;
  let factory: string;
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let counter = 0;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, clock, engine: false });
    api = restClient(server, server.adminKey);
    factory = await api.createFactory('ingress');
  });
  afterAll(() => server?.close());

  /** A fresh token webhook in a fresh factory (own rate limit and budget) and its bearer header. */
  async function tokenWebhook(extra: Record<string, unknown> = {}) {
    const factoryUid = await api.createFactory(`ingress-${++counter}`);
    const wh = await api.createWebhook(factoryUid, { name: `token-${counter}`, ...extra });
    return { wh, auth: { authorization: `Bearer ${wh.secret as string}` } };
  }
  const labels = async (wh: { uid: string; factory_uid: string }) => (await api.deliveries(wh.factory_uid, wh.uid)).map((d) => d.label as string);
  /** Moves the clock to the start of the next rate-limit window (60 s), so window arithmetic is exact. */
  const toNextWindow = () => clock.set(Math.floor(clock.now().getTime() / 60_000) * 60_000 + 60_000);

  describe('answers and log labels', () => {
    it('202 Accepted: answers {delivery_id}, logs the entry with its payload before answering', async () => {
      const { wh, auth } = await tokenWebhook();
      const res = await send(wh.ingress_url, '{"action":"opened","n":1}', { headers: auth });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ delivery_id: expect.stringMatching(/^dlv_[0-9a-z]{26}$/) });
      const entry = await api.delivery(wh.factory_uid, wh.uid, res.body.delivery_id);
      expect(entry).toMatchObject({ label: 'Accepted', size: 25, webhook_uid: wh.uid, payload: { action: 'opened', n: 1 } });
      expect(entry.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(entry.identity_source).toBe('body_hash');
    });

    it('accepts any JSON value whatever the Content-Type says', async () => {
      const { wh, auth } = await tokenWebhook();
      for (const body of ['[1,2,3]', '"just a string"', '42', 'null', 'true', '\ufeff{"bom":true}']) {
        const res = await send(wh.ingress_url, body, { headers: { ...auth, 'content-type': 'text/plain' } });
        expect(res.status, body).toBe(202);
      }
      const accepted = await api.deliveries(wh.factory_uid, wh.uid);
      expect(accepted.map((d) => d.label)).toEqual(Array(6).fill('Accepted'));
      const payloads = await Promise.all(accepted.map((d) => api.delivery(wh.factory_uid, wh.uid, d.delivery_id)));
      expect(payloads.map((d) => d.payload).reverse()).toEqual([[1, 2, 3], 'just a string', 42, null, true, { bom: true }]);
    });

    it('202 Duplicate: same identity again → its own delivery_id, duplicate_of the accepted one, no payload', async () => {
      const { wh, auth } = await tokenWebhook();
      const first = await send(wh.ingress_url, '{"same":true}', { headers: auth });
      const second = await send(wh.ingress_url, '{"same":true}', { headers: auth });
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(second.body.delivery_id).not.toBe(first.body.delivery_id);
      const dup = await api.delivery(wh.factory_uid, wh.uid, second.body.delivery_id);
      expect(dup).toMatchObject({ label: 'Duplicate', duplicate_of: first.body.delivery_id, identity_source: 'body_hash' });
      expect(dup).not.toHaveProperty('payload');
    });

    it('401 Rejected (auth): wrong or missing bearer token; metadata only', async () => {
      const { wh, auth } = await tokenWebhook();
      expectProblem(await send(wh.ingress_url, '{}', { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      expectProblem(await send(wh.ingress_url, '{}'), 401, 'authentication_required');
      expectProblem(await send(wh.ingress_url, '{}', { headers: { authorization: `Basic ${auth.authorization.slice(7)}` } }), 401, 'authentication_required');
      const entries = await api.deliveries(wh.factory_uid, wh.uid);
      expect(entries.map((d) => d.label)).toEqual(['Rejected (auth)', 'Rejected (auth)', 'Rejected (auth)']);
      const one = await api.delivery(wh.factory_uid, wh.uid, entries[0].delivery_id);
      expect(one).toMatchObject({ size: 2, identity: null, identity_source: null });
      expect(one).not.toHaveProperty('payload');
      // The scheme word is case-insensitive.
      expect((await send(wh.ingress_url, '{}', { headers: { authorization: `bearer ${auth.authorization.slice(7)}` } })).status).toBe(202);
    });

    it('400 Rejected (invalid JSON)', async () => {
      const { wh, auth } = await tokenWebhook();
      for (const body of ['{"unterminated":', '', 'not json', "{'single':1}"]) {
        const res = await send(wh.ingress_url, body, { headers: auth });
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.detail).toBe('The body is not valid JSON.');
      }
      expect(await labels(wh)).toEqual(Array(4).fill('Rejected (invalid JSON)'));
    });

    it('413 Rejected (too large): a declared Content-Length over the cap, and a chunked body crossing it', async () => {
      const { wh, auth } = await tokenWebhook();
      const ok = await send(wh.ingress_url, Buffer.from(`"${'x'.repeat(MAX - 2)}"`), { headers: auth });
      expect(ok.status).toBe(202); // exactly 262,144 bytes is allowed
      const declared = await send(wh.ingress_url, Buffer.from(`"${'y'.repeat(MAX - 1)}"`), { headers: auth });
      expectProblem(declared, 413, 'payload_too_large');
      expect(declared.headers.get('connection')).toBe('close');
      const chunked = await send(wh.ingress_url, Buffer.alloc(MAX * 4, 0x20), { headers: auth, chunked: 16_384 });
      expectProblem(chunked, 413, 'payload_too_large');
      const entries = await api.deliveries(wh.factory_uid, wh.uid);
      expect(entries.map((d) => d.label)).toEqual(['Rejected (too large)', 'Rejected (too large)', 'Accepted']);
      expect(entries[1].size).toBe(MAX + 1);
      expect(entries[0].size).toBeGreaterThan(MAX);
      expect(entries[0].size).toBeLessThan(MAX * 2); // reading stopped at the chunk that crossed the cap
    });

    it('413 is answered without waiting for (or reading) the rest of an oversize body', async () => {
      const { wh, auth } = await tokenWebhook();
      const { request } = await import('node:http');
      const target = new URL(wh.ingress_url);
      // Declares 10 MB, sends 1 KB and never more: the answer must still come.
      const declared = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...auth, 'content-length': String(10 * 1024 * 1024) } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', reject);
        req.write(Buffer.alloc(1024, 0x20));
      });
      expect(declared).toBe(413);
      // Chunked: 300 KB written, the request never ended.
      const streamed = await new Promise<number>((resolve, reject) => {
        const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: auth }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write(Buffer.alloc(300 * 1024, 0x20));
      });
      expect(streamed).toBe(413);
    });

    it('404 for unknown, disabled and deleted webhooks — not logged', async () => {
      const { wh, auth } = await tokenWebhook();
      expectProblem(await send(`${server.ingressUrl}/webhooks/w/wh_00000000000000000000000000`, '{}', { headers: auth }), 404, 'resource_not_found');
      expect((await api.patch(`/factories/${wh.factory_uid}/webhooks/${wh.uid}`, { enabled: false })).status).toBe(200);
      const disabled = await send(wh.ingress_url, '{}', { headers: auth });
      expectProblem(disabled, 404, 'resource_not_found');
      expect(disabled.body.detail).toBe('No enabled webhook at this URL.');
      expect((await api.patch(`/factories/${wh.factory_uid}/webhooks/${wh.uid}`, { enabled: true })).status).toBe(200);
      expect((await send(wh.ingress_url, '{"back":1}', { headers: auth })).status).toBe(202);
      expect((await api.delete(`/factories/${wh.factory_uid}/webhooks/${wh.uid}`)).status).toBe(204);
      expectProblem(await send(wh.ingress_url, '{"gone":1}', { headers: auth }), 404, 'resource_not_found');
      // Only the one accepted delivery is in the log, and it stays readable after the delete.
      expect(await labels(wh)).toEqual(['Accepted']);
    });

    it('404 for paths of other shapes under /webhooks/', async () => {
      for (const path of ['/webhooks/', '/webhooks/x', '/webhooks/w/', '/webhooks/w/a/b/c']) {
        expectProblem(await send(`${server.ingressUrl}${path}`, '{}'), 404, 'resource_not_found');
      }
    });

    it('405 with Allow: POST for any other method — not logged', async () => {
      const { wh, auth } = await tokenWebhook();
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const res = await send(wh.ingress_url, '', { method, headers: auth });
        expectProblem(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('POST');
      }
      const head = await send(wh.ingress_url, '', { method: 'HEAD', headers: auth });
      expect(head.status).toBe(405);
      expect(await labels(wh)).toEqual([]);
    });

    it('echoes a safe x-request-id as trace_id', async () => {
      const res = await send(`${server.ingressUrl}/webhooks/w/wh_unknown`, '{}', { headers: { 'x-request-id': 'trace-123' } });
      expect(res.headers.get('x-request-id')).toBe('trace-123');
      expect(res.body.trace_id).toBe('trace-123');
    });
  });

  describe('url_token mode', () => {
    it('the path segment is the credential; a wrong or missing one is 401, never echoed', async () => {
      const wh = await api.createWebhook(factory, { name: `url-${++counter}`, auth_mode: 'url_token' });
      const token = wh.secret as string;
      expect(wh.ingress_url).toBe(`${server.ingressUrl}/webhooks/w/${wh.uid}/${token}`);
      expect((await send(wh.ingress_url, '{"ok":1}')).status).toBe(202);
      const wrong = await send(`${server.ingressUrl}/webhooks/w/${wh.uid}/not-the-token`, '{}');
      expectProblem(wrong, 401, 'authentication_required');
      expect(wrong.body.instance).toBe(`/webhooks/w/${wh.uid}/{token}`);
      const bare = await send(`${server.ingressUrl}/webhooks/w/${wh.uid}`, '{}', { headers: { authorization: `Bearer ${token}` } });
      expectProblem(bare, 401, 'authentication_required');
      // A 405 on the token URL does not echo the token either.
      const get = await send(wh.ingress_url, '', { method: 'GET' });
      expect(JSON.stringify(get.body)).not.toContain(token);
      expect(await labels(wh)).toEqual(['Rejected (auth)', 'Rejected (auth)', 'Accepted']);
    });

    it('a token segment on a token-mode webhook fails authentication', async () => {
      const { wh, auth } = await tokenWebhook();
      const res = await send(`${wh.ingress_url}/${auth.authorization.slice(7)}`, '{}', { headers: auth });
      expectProblem(res, 401, 'authentication_required');
      expect(await labels(wh)).toEqual(['Rejected (auth)']);
    });
  });

  describe('delivery identity', () => {
    it('prefers the configured header, then X-Service-Delivery-Id, then the body hash', async () => {
      const { wh, auth } = await tokenWebhook({ delivery_id_header: 'X-Event-Id' });
      const a = await send(wh.ingress_url, '{"v":1}', { headers: { ...auth, 'x-event-id': 'evt-1', 'x-service-delivery-id': 'svc-1' } });
      const b = await send(wh.ingress_url, '{"v":2}', { headers: { ...auth, 'x-event-id': 'evt-1' } }); // other body, same event id
      const c = await send(wh.ingress_url, '{"v":3}', { headers: { ...auth, 'x-service-delivery-id': 'svc-1' } });
      const d = await send(wh.ingress_url, '{"v":4}', { headers: { ...auth, 'x-service-delivery-id': 'svc-1' } });
      const e = await send(wh.ingress_url, '{"v":3}', { headers: auth });
      const got = await Promise.all([a, b, c, d, e].map((r) => api.delivery(wh.factory_uid, wh.uid, r.body.delivery_id)));
      expect(got.map((x) => [x.label, x.identity_source, x.identity])).toEqual([
        ['Accepted', 'delivery_id_header', 'evt-1'],
        ['Duplicate', 'delivery_id_header', 'evt-1'],
        ['Accepted', 'service_header', 'svc-1'],
        ['Duplicate', 'service_header', 'svc-1'],
        ['Accepted', 'body_hash', expect.stringMatching(/^sha256:/)],
      ]);
      expect(got[1].duplicate_of).toBe(got[0].delivery_id);
      expect(got[3].duplicate_of).toBe(got[2].delivery_id);
    });

    it('identical bodies with different sender ids are different deliveries', async () => {
      const { wh, auth } = await tokenWebhook();
      const a = await send(wh.ingress_url, '{"same":1}', { headers: { ...auth, 'x-service-delivery-id': 'one' } });
      const b = await send(wh.ingress_url, '{"same":1}', { headers: { ...auth, 'x-service-delivery-id': 'two' } });
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(await labels(wh)).toEqual(['Accepted', 'Accepted']);
    });

    it('identities are per webhook', async () => {
      const one = await tokenWebhook();
      const two = await tokenWebhook();
      await send(one.wh.ingress_url, '{"shared":1}', { headers: one.auth });
      await send(two.wh.ingress_url, '{"shared":1}', { headers: two.auth });
      expect(await labels(one.wh)).toEqual(['Accepted']);
      expect(await labels(two.wh)).toEqual(['Accepted']);
    });
  });

  describe('check order (the first failing check answers)', () => {
    it('405 beats 404: GET to an unknown webhook', async () => {
      const res = await send(`${server.ingressUrl}/webhooks/w/wh_00000000000000000000000000`, '', { method: 'GET' });
      expectProblem(res, 405, 'method_not_allowed');
    });

    it('404 beats 413 and 401: oversize unauthenticated POST to a disabled webhook', async () => {
      const { wh } = await tokenWebhook({ enabled: false });
      expectProblem(await send(wh.ingress_url, Buffer.alloc(MAX + 10, 0x20)), 404, 'resource_not_found');
    });

    it('token and url_token: 401 beats 413 (the credential is checked before the body is read); 413 only once authenticated', async () => {
      const { wh, auth } = await tokenWebhook();
      const big = Buffer.alloc(MAX + 1, 0x20);
      expectProblem(await send(wh.ingress_url, big, { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      expectProblem(await send(wh.ingress_url, big, { headers: auth }), 413, 'payload_too_large');
      const entries = await api.deliveries(wh.factory_uid, wh.uid);
      expect(entries.map((d) => d.label)).toEqual(['Rejected (too large)', 'Rejected (auth)']);
      expect(entries[1].size).toBe(MAX + 1); // the declared Content-Length: the body itself was never read
      const byUrl = await api.createWebhook(factory, { name: `url-big-${++counter}`, auth_mode: 'url_token' });
      expectProblem(await send(`${server.ingressUrl}/webhooks/w/${byUrl.uid}/wrong`, big), 401, 'authentication_required');
      expectProblem(await send(byUrl.ingress_url, big), 413, 'payload_too_large');
      expect(await labels(byUrl)).toEqual(['Rejected (too large)', 'Rejected (auth)']);
    });

    it('token: a wrong credential is answered 401 without waiting for a body that never ends', async () => {
      const { wh } = await tokenWebhook();
      const { request } = await import('node:http');
      const target = new URL(wh.ingress_url);
      // Chunked, 64 KB written, never ended: only an answer that does not read the body can come.
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { authorization: 'Bearer wrong' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', reject);
        req.write(Buffer.alloc(64 * 1024, 0x20));
      });
      expect(status).toBe(401);
      expect(await labels(wh)).toEqual(['Rejected (auth)']);
    });

    it('signature: 413 beats 401, and an oversized request spends the failed-auth budget (logged while it lasts)', async () => {
      toNextWindow();
      const secret = `gh-${++counter}`;
      const wh = await api.createWebhook(await api.createFactory(`sig-${counter}`), {
        name: `sig-${counter}`,
        auth_mode: 'signature',
        signature_scheme: 'github',
        provider_secret: secret,
      });
      const big = Buffer.alloc(MAX + 1, 0x20);
      for (let i = 0; i < 5; i++)
        expectProblem(await send(wh.ingress_url, big, { headers: { 'x-hub-signature-256': githubSignature(secret, big) } }), 413, 'payload_too_large');
      for (let i = 0; i < 5; i++)
        expectProblem(await send(wh.ingress_url, '{}', { headers: { 'x-hub-signature-256': 'sha256=00' } }), 401, 'authentication_required');
      // Budget spent: an oversized (unverifiable) or badly signed request gets no further and is not logged;
      // a correctly signed delivery is never refused by the budget.
      expectProblem(await send(wh.ingress_url, big), 429, 'rate_limited');
      expectProblem(await send(wh.ingress_url, '{}', { headers: { 'x-hub-signature-256': 'sha256=00' } }), 429, 'rate_limited');
      expect((await send(wh.ingress_url, '{}', { headers: { 'x-hub-signature-256': githubSignature(secret, '{}') } })).status).toBe(202);
      expect(await labels(wh)).toEqual(['Accepted', ...Array(5).fill('Rejected (auth)'), ...Array(5).fill('Rejected (too large)')]);
    });

    it('401 beats 400: bad credential and invalid JSON', async () => {
      const { wh } = await tokenWebhook();
      expectProblem(await send(wh.ingress_url, 'not json', { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      expect(await labels(wh)).toEqual(['Rejected (auth)']);
    });

    it('429 (delivery rate) beats 400: rate-limited invalid JSON is not logged', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      for (let i = 0; i < 60; i++) expect((await send(wh.ingress_url, 'not json', { headers: auth })).status).toBe(400);
      const res = await send(wh.ingress_url, 'not json', { headers: auth });
      expectProblem(res, 429, 'rate_limited');
      expect((await api.deliveries(wh.factory_uid, wh.uid, '?limit=500')).length).toBe(60);
    });

    it('429 (failed-auth budget) beats 401 for a wrong credential, never the right one: that gets its 413 or 202', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      for (let i = 0; i < 10; i++) expect((await send(wh.ingress_url, '{}', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expectProblem(await send(wh.ingress_url, Buffer.alloc(MAX + 1, 0x20), { headers: { authorization: 'Bearer wrong' } }), 429, 'rate_limited');
      expectProblem(await send(wh.ingress_url, Buffer.alloc(MAX + 1, 0x20), { headers: auth }), 413, 'payload_too_large');
      expect((await send(wh.ingress_url, '{}', { headers: auth })).status).toBe(202);
      expect(await labels(wh)).toEqual(['Accepted', 'Rejected (too large)', ...Array(10).fill('Rejected (auth)')]);
    });
  });

  describe('limits', () => {
    it('60 authenticated deliveries per minute per webhook, then 429 with Retry-After until a slot frees', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      for (let i = 0; i < 60; i++) expect((await send(wh.ingress_url, JSON.stringify({ i }), { headers: auth })).status).toBe(202);
      const limited = await send(wh.ingress_url, '{"i":60}', { headers: auth });
      expectProblem(limited, 429, 'rate_limited');
      expect(limited.body.retryable).toBe(true);
      const retryAfter = Number(limited.headers.get('retry-after'));
      // All 60 went in at the window start: the next slot frees when the sliding minute has moved past them.
      expect(retryAfter).toBe(61);
      // Failed authentications do not take delivery slots, and are still logged.
      expectProblem(await send(wh.ingress_url, '{}', { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      clock.advance((retryAfter - 1) * 1000);
      expectProblem(await send(wh.ingress_url, '{"i":61}', { headers: auth }), 429, 'rate_limited');
      clock.advance(1000);
      expect((await send(wh.ingress_url, '{"i":62}', { headers: auth })).status).toBe(202);
      const entries = await api.deliveries(wh.factory_uid, wh.uid, '?limit=500');
      expect(entries.filter((d) => d.label === 'Accepted')).toHaveLength(61);
      expect(entries.filter((d) => d.label === 'Rejected (auth)')).toHaveLength(1);
    });

    it('the sliding window lets deliveries back in gradually as the previous minute ages out', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      for (let i = 0; i < 60; i++) await send(wh.ingress_url, JSON.stringify({ i }), { headers: auth });
      clock.advance(90_000); // half-way through the next window: half of the previous minute still counts
      let accepted = 0;
      for (let i = 0; i < 40; i++) if ((await send(wh.ingress_url, JSON.stringify({ j: i }), { headers: auth })).status === 202) accepted++;
      expect(accepted).toBe(30);
      // A fixed window would have let all 40 through; the estimate is 60 × 0.5 + 30 = 60.
      const limited = await send(wh.ingress_url, '{"k":1}', { headers: auth });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    });

    it('failed-auth budget: 10 failures per sender address per webhook, 429 with Retry-After, then recovers', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      const other = await tokenWebhook();
      for (let i = 0; i < 10; i++) expect((await send(wh.ingress_url, '{}', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const spent = await send(wh.ingress_url, '{"wrong":11}', { headers: { authorization: 'Bearer wrong' } });
      expectProblem(spent, 429, 'rate_limited');
      expect(spent.body.detail).toMatch(/failed authentication/);
      expect(Number(spent.headers.get('retry-after'))).toBe(61);
      // Another sender address (127.0.0.2 on the loopback network) and another webhook are unaffected.
      expectProblem(
        await send(wh.ingress_url, '{"from":2}', { headers: { authorization: 'Bearer wrong' }, localAddress: '127.0.0.2' }),
        401,
        'authentication_required',
      );
      expectProblem(await send(other.wh.ingress_url, '{"other":1}', { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      clock.advance(61_000);
      expectProblem(await send(wh.ingress_url, '{"wrong":12}', { headers: { authorization: 'Bearer wrong' } }), 401, 'authentication_required');
      expect((await send(wh.ingress_url, '{"right":2}', { headers: auth })).status).toBe(202);
    });

    it('the failed-auth budget holds under concurrency: 40 bad credentials at once → at most 10 × 401, the rest 429', async () => {
      toNextWindow();
      const { wh } = await tokenWebhook();
      const held = Array.from({ length: 40 }, (_, i) => heldSend(wh.ingress_url, { authorization: 'Bearer wrong' }, `{"i":${i}`));
      // A token is checked before the body is read: every request is answered with its body unfinished.
      const statuses = await Promise.all(held.map((h) => h.status));
      held.forEach((h) => h.release('}'));
      const refused = statuses.filter((s) => s === 401).length;
      expect(refused).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - refused);
      expect((await labels(wh)).length).toBe(refused);
    });

    it('signature: 40 oversized or badly signed requests at once → at most 10 answered 413 or 401, the rest 429', async () => {
      toNextWindow();
      const secret = `gh-${++counter}`;
      const wh = await api.createWebhook(await api.createFactory(`sig-${counter}`), {
        name: `sig-${counter}`,
        auth_mode: 'signature',
        signature_scheme: 'github',
        provider_secret: secret,
      });
      const held = Array.from({ length: 40 }, (_, i) => heldSend(wh.ingress_url, { 'x-hub-signature-256': 'sha256=00' }, `{"i":${i}`));
      await delay(500);
      held.forEach((h, i) => h.release(i % 2 ? Buffer.alloc(MAX, 0x20) : '}'));
      const statuses = await Promise.all(held.map((h) => h.status));
      const answered = statuses.filter((s) => s === 401 || s === 413).length;
      expect(answered).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - answered);
      expect((await labels(wh)).length).toBe(answered);
    });

    it('deliveries committed together take the delivery limit exactly: 30 at once, then 40 at once for the last 30 slots', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      /** Requests whose bodies are finished at the same moment, so they are written in shared transactions. */
      const together = async (bodies: Array<[first: string, rest: string]>) => {
        const held = bodies.map(([first]) => heldSend(wh.ingress_url, { ...auth, 'content-type': 'application/json' }, first));
        await delay(300);
        held.forEach((h, i) => h.release(bodies[i]![1]));
        return Promise.all(held.map((h) => h.status));
      };
      const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
      // Room for all 30: every one takes a slot, whatever it turns out to be (Accepted, Duplicate, invalid JSON).
      const first = await together(
        Array.from({ length: 30 }, (_, i): [string, string] => (i % 10 === 0 ? [`{"i":${i}`, ',,}'] : i % 10 === 1 ? ['{"same":1', '}'] : [`{"i":${i}`, '}'])),
      );
      expect(count(first, 202)).toBe(27);
      expect(count(first, 400)).toBe(3);
      // Room for 30 of 40: exactly 30 are written, 10 refused and not logged.
      const second = await together(Array.from({ length: 40 }, (_, i): [string, string] => [`{"j":${i}`, '}']));
      expect(count(second, 202)).toBe(30);
      expect(count(second, 429)).toBe(10);
      const logged = (await api.deliveries(wh.factory_uid, wh.uid, '?limit=500')).map((d) => d.label as string);
      expect(logged).toHaveLength(60);
      expect(logged.filter((l) => l === 'Rejected (invalid JSON)')).toHaveLength(3);
      expect(logged.filter((l) => l === 'Duplicate')).toHaveLength(2);
      expect(logged.filter((l) => l === 'Accepted')).toHaveLength(55);
      expectProblem(await send(wh.ingress_url, '{"k":1}', { headers: auth }), 429, 'rate_limited');
    });

    it('two server instances on one database enforce one delivery limit', async () => {
      toNextWindow();
      const { wh, auth } = await tokenWebhook();
      const { startServer } = await import('../../src/main');
      const second = await startServer({ ...server.ctx.settings, port: 0 }, { clock, engine: false, log: server.ctx.log });
      try {
        const path = new URL(wh.ingress_url).pathname;
        const urls = [wh.ingress_url, `${second.ingressUrl}${path}`];
        const statuses: number[] = [];
        for (let i = 0; i < 62; i++) statuses.push((await send(urls[i % 2]!, JSON.stringify({ i }), { headers: auth })).status);
        expect(statuses.filter((s) => s === 202)).toHaveLength(60);
        expect(statuses.slice(60)).toEqual([429, 429]);
      } finally {
        await second.close();
      }
    });
  });
});
