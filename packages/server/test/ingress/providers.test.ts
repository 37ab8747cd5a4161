/**
 * Every provider signature scheme end to end over real HTTP, signed by the provider's own library where one
 * exists on npm (standardwebhooks, svix, stripe, @octokit/webhooks-methods) and by node:crypto following the
 * provider's documentation otherwise (slack, shopify, linear, gitlab). Also: replayed timestamps, several
 * signatures in one header, the second-step provider secret and rotation cutting off the old secret.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { startTestServer, type TestServer } from '../support/server';
import { expectProblem, restClient, send, type RestClient } from '../webhooks/helpers';

const stripe = new Stripe('sk_test_unused');
const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data);

describe('provider signature schemes', () => {
  let server: TestServer;
  let api: RestClient;
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ clock, engine: false });
    api = restClient(server, server.adminKey);
  });
  afterAll(() => server?.close());

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  async function signatureWebhook(scheme: string, providerSecret?: string, extra: Record<string, unknown> = {}) {
    const factory = await api.createFactory(`providers-${++n}`);
    return api.createWebhook(factory, {
      name: `${scheme}-${n}`,
      auth_mode: 'signature',
      signature_scheme: scheme,
      ...(providerSecret === undefined ? {} : { provider_secret: providerSecret }),
      ...extra,
    });
  }
  const entry = (wh: any, deliveryId: string) => api.delivery(wh.factory_uid, wh.uid, deliveryId);
  const labels = async (wh: any) => (await api.deliveries(wh.factory_uid, wh.uid)).map((d) => d.label as string);

  describe('standard-webhooks', () => {
    it('verifies the standardwebhooks library signature; identity = webhook-id; generated whsec_ secret', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      expect(wh.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const body = '{ "type": "invoice.paid",  "id": 7 }'; // odd spacing: verified over the raw bytes
      const id = `msg_${randomUUID()}`;
      const signature = new StandardWebhook(wh.secret).sign(id, clock.now(), body);
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds()), 'webhook-signature': signature };
      const res = await send(wh.ingress_url, body, { headers });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ label: 'Accepted', identity: id, identity_source: 'provider_header' });
      // The provider retrying the same message is a duplicate.
      const again = await send(wh.ingress_url, body, { headers });
      expect((await entry(wh, again.body.delivery_id)).label).toBe('Duplicate');
    });

    it('accepts the Svix-branded headers signed by the svix library', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      const body = JSON.stringify({ svix: true });
      const id = `msg_${randomUUID()}`;
      const signature = new SvixWebhook(wh.secret).sign(id, clock.now(), body);
      const res = await send(wh.ingress_url, body, { headers: { 'svix-id': id, 'svix-timestamp': String(nowSeconds()), 'svix-signature': signature } });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: id, identity_source: 'provider_header' });
    });

    it('matches the published Standard Webhooks test vector', async () => {
      const saved = clock.now();
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const wh = await signatureWebhook('standard-webhooks', secret);
      clock.set(1_614_265_330_000 + 30_000);
      try {
        const headers = {
          'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
          'webhook-timestamp': '1614265330',
          'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
        };
        expect((await send(wh.ingress_url, '{"test": 2432232314}', { headers })).status).toBe(202);
        // One changed byte of the body breaks it.
        expect((await send(wh.ingress_url, '{"test": 2432232315}', { headers })).status).toBe(401);
      } finally {
        clock.set(saved);
      }
    });

    it('rejects timestamps more than five minutes old or in the future (replays)', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      const signer = new StandardWebhook(wh.secret);
      const body = '{"replayed":true}';
      for (const offsetSeconds of [-301, 301, -3600]) {
        const at = new Date(clock.now().getTime() + offsetSeconds * 1000);
        const id = `msg_${randomUUID()}`;
        const res = await send(wh.ingress_url, body, {
          headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signer.sign(id, at, body) },
        });
        expectProblem(res, 401, 'authentication_required');
      }
      // 299 seconds old is still inside the tolerance.
      const at = new Date(clock.now().getTime() - 299_000);
      const id = `msg_${randomUUID()}`;
      const ok = await send(wh.ingress_url, body, {
        headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signer.sign(id, at, body) },
      });
      expect(ok.status).toBe(202);
      expect(await labels(wh)).toEqual(['Accepted', 'Rejected (auth)', 'Rejected (auth)', 'Rejected (auth)']);
    });

    it('accepts a header with several signatures when one matches (secret roll), rejects when none does', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      const body = '{"multi":1}';
      const id = `msg_${randomUUID()}`;
      const good = new StandardWebhook(wh.secret).sign(id, clock.now(), body);
      const other = new StandardWebhook('whsec_' + Buffer.alloc(32, 7).toString('base64')).sign(id, clock.now(), body);
      const ts = String(nowSeconds());
      const multi = await send(wh.ingress_url, body, {
        headers: { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `${other} v1a,ignored ${good}` },
      });
      expect(multi.status).toBe(202);
      const none = await send(wh.ingress_url, body, {
        headers: { 'webhook-id': `${id}-2`, 'webhook-timestamp': ts, 'webhook-signature': `${other} ${other}` },
      });
      expect(none.status).toBe(401);
    });

    it('an unsigned request to a signature webhook is 401', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      expectProblem(await send(wh.ingress_url, '{"unsigned":1}'), 401, 'authentication_required');
      expect(await labels(wh)).toEqual(['Rejected (auth)']);
    });
  });

  describe('stripe', () => {
    it('verifies stripe.webhooks.generateTestHeaderString; rejects old timestamps; any of several v1 may match', async () => {
      const secret = 'whsec_' + 'ab12'.repeat(16);
      const wh = await signatureWebhook('stripe', secret);
      expect(wh.secret).toBe(secret); // a provider secret given at create is answered once too
      const body = '{"id":"evt_1","type":"charge.succeeded"}';
      const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: nowSeconds() });
      expect((await send(wh.ingress_url, body, { headers: { 'stripe-signature': header } })).status).toBe(202);

      const old = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: nowSeconds() - 301 });
      expectProblem(await send(wh.ingress_url, body, { headers: { 'stripe-signature': old } }), 401, 'authentication_required');

      const other = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other', timestamp: nowSeconds() });
      const v1 = (h: string) => h.split(',').find((p) => p.startsWith('v1='))!;
      const multi = `t=${nowSeconds()},${v1(other)},${v1(header)}`;
      expect((await send(wh.ingress_url, '{"id":"evt_1","type":"charge.succeeded"} ', { headers: { 'stripe-signature': multi } })).status).toBe(401);
      expect((await send(wh.ingress_url, body, { headers: { 'stripe-signature': multi, 'x-service-delivery-id': 'again' } })).status).toBe(202);
      // Verified, and the same signed body under a new delivery id is a replay: a Duplicate (newest first).
      expect(await labels(wh)).toEqual(['Duplicate', 'Rejected (auth)', 'Rejected (auth)', 'Accepted']);
    });
  });

  describe('github', () => {
    it('verifies @octokit/webhooks-methods sign(); identity = X-GitHub-Delivery', async () => {
      const secret = 'gh-secret-' + randomUUID();
      const wh = await signatureWebhook('github', secret);
      const body = JSON.stringify({ action: 'opened', issue: { number: 1 } });
      const delivery = randomUUID();
      const res = await send(wh.ingress_url, body, { headers: { 'x-hub-signature-256': await githubSign(secret, body), 'x-github-delivery': delivery } });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: delivery, identity_source: 'provider_header' });
      const forged = await send(wh.ingress_url, body, {
        headers: { 'x-hub-signature-256': await githubSign('wrong', body), 'x-github-delivery': randomUUID() },
      });
      expectProblem(forged, 401, 'authentication_required');
    });

    it('the configured delivery_id_header wins over the provider header', async () => {
      const secret = 'gh-secret-' + randomUUID();
      const wh = await signatureWebhook('github', secret, { delivery_id_header: 'X-Custom-Id' });
      const body = '{"x":1}';
      const res = await send(wh.ingress_url, body, {
        headers: { 'x-hub-signature-256': await githubSign(secret, body), 'x-github-delivery': 'gh-1', 'x-custom-id': 'custom-1' },
      });
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: 'custom-1', identity_source: 'delivery_id_header' });
    });
  });

  describe('slack', () => {
    it('verifies v0 signatures over v0:{ts}:{body}; rejects stale timestamps', async () => {
      const secret = 'slack-signing-' + randomUUID();
      const wh = await signatureWebhook('slack', secret);
      const body = '{"type":"event_callback","event":{"type":"app_mention"}}';
      const headers = (ts: number) => ({
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': 'v0=' + hmac(secret, `v0:${ts}:${body}`).digest('hex'),
      });
      const ok = await send(wh.ingress_url, body, { headers: headers(nowSeconds()) });
      expect(ok.status).toBe(202);
      expect((await entry(wh, ok.body.delivery_id)).identity_source).toBe('body_hash'); // Slack has no delivery header
      expectProblem(await send(wh.ingress_url, body, { headers: headers(nowSeconds() - 600) }), 401, 'authentication_required');
    });
  });

  describe('shopify', () => {
    it('verifies the base64 HMAC; identity = X-Shopify-Webhook-Id', async () => {
      const secret = 'shpss_' + 'c0ffee'.repeat(5);
      const wh = await signatureWebhook('shopify', secret);
      const body = '{"id":820982911946154508,"email":"jon@example.com"}';
      const res = await send(wh.ingress_url, body, {
        headers: { 'x-shopify-hmac-sha256': hmac(secret, body).digest('base64'), 'x-shopify-webhook-id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' },
      });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043', identity_source: 'provider_header' });
      const wrong = await send(wh.ingress_url, body, { headers: { 'x-shopify-hmac-sha256': hmac('nope', body).digest('base64') } });
      expectProblem(wrong, 401, 'authentication_required');
    });
  });

  describe('linear', () => {
    it('verifies the hex HMAC; identity = Linear-Delivery', async () => {
      const secret = 'lin_wh_' + randomUUID();
      const wh = await signatureWebhook('linear', secret);
      const body = `{"action":"create","type":"Issue","webhookTimestamp":${clock.now().getTime()}}`;
      const res = await send(wh.ingress_url, body, { headers: { 'linear-signature': hmac(secret, body).digest('hex'), 'linear-delivery': 'lin-d-1' } });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: 'lin-d-1', identity_source: 'provider_header' });
      expectProblem(
        await send(wh.ingress_url, body, { headers: { 'linear-signature': hmac(secret, body + ' ').digest('hex') } }),
        401,
        'authentication_required',
      );
    });
    it('refuses a captured delivery replayed past a minute under a new Linear-Delivery (timestamp outside tolerance)', async () => {
      const secret = 'lin_wh_' + randomUUID();
      const wh = await signatureWebhook('linear', secret);
      const body = `{"action":"update","type":"Issue","webhookTimestamp":${clock.now().getTime()}}`;
      const signature = hmac(secret, body).digest('hex');
      expect((await send(wh.ingress_url, body, { headers: { 'linear-signature': signature, 'linear-delivery': 'lin-first' } })).status).toBe(202);
      const saved = clock.now();
      try {
        clock.advance(61_000);
        const replayed = await send(wh.ingress_url, body, { headers: { 'linear-signature': signature, 'linear-delivery': 'lin-replayed' } });
        expectProblem(replayed, 401, 'authentication_required');
      } finally {
        clock.set(saved);
      }
      const log = await api.deliveries(wh.factory_uid, wh.uid);
      expect(log.map((d) => [d.label, d.rejection_reason ?? null])).toEqual([
        ['Rejected (auth)', 'timestamp outside tolerance'],
        ['Accepted', null],
      ]);
    });
  });

  describe('gitlab', () => {
    it('compares X-Gitlab-Token to the secret; identity = X-Gitlab-Event-UUID', async () => {
      const secret = 'gitlab-token-' + randomUUID();
      const wh = await signatureWebhook('gitlab', secret);
      const body = '{"object_kind":"push"}';
      const res = await send(wh.ingress_url, body, { headers: { 'x-gitlab-token': secret, 'x-gitlab-event-uuid': 'gl-uuid-1' } });
      expect(res.status).toBe(202);
      expect(await entry(wh, res.body.delivery_id)).toMatchObject({ identity: 'gl-uuid-1', identity_source: 'provider_header' });
      expectProblem(await send(wh.ingress_url, body, { headers: { 'x-gitlab-token': secret + 'x' } }), 401, 'authentication_required');
    });
  });

  describe('second-step provider secret', () => {
    it('a signature webhook created without its provider secret answers 401 until rotate-secret supplies it', async () => {
      const wh = await signatureWebhook('github');
      expect(wh).toMatchObject({ secret: null, secret_configured: false });
      const body = '{"zen":"Keep it logically awesome."}';
      // Whatever the sender signs with, nothing verifies yet.
      for (const guess of ['', 'anything', wh.secret_name]) {
        const res = await send(wh.ingress_url, body, {
          headers: { 'x-hub-signature-256': await githubSign(guess || 'x', body), 'x-github-delivery': randomUUID() },
        });
        expectProblem(res, 401, 'authentication_required');
      }
      const secret = 'issued-after-url-' + randomUUID();
      const rotated = await api.post(`/factories/${wh.factory_uid}/webhooks/${wh.uid}/rotate-secret`, { provider_secret: secret });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({ secret, secret_configured: true });
      const res = await send(wh.ingress_url, body, { headers: { 'x-hub-signature-256': await githubSign(secret, body), 'x-github-delivery': randomUUID() } });
      expect(res.status).toBe(202);
    });
  });

  describe('rotation', () => {
    it('cuts off the old secret immediately (signature mode)', async () => {
      const wh = await signatureWebhook('standard-webhooks');
      const body = '{"rot":1}';
      const deliver = (secret: string) => {
        const id = `msg_${randomUUID()}`;
        return send(wh.ingress_url, body, {
          headers: {
            'webhook-id': id,
            'webhook-timestamp': String(nowSeconds()),
            'webhook-signature': new StandardWebhook(secret).sign(id, clock.now(), body),
          },
        });
      };
      expect((await deliver(wh.secret)).status).toBe(202);
      const rotated = await api.post(`/factories/${wh.factory_uid}/webhooks/${wh.uid}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(wh.secret);
      expect((await deliver(wh.secret)).status).toBe(401);
      expect((await deliver(rotated.body.secret)).status).toBe(202);
    });

    it('cuts off the old secret immediately (token and url_token modes)', async () => {
      const factory = await api.createFactory(`rotation-${++n}`);
      const token = await api.createWebhook(factory, { name: 'tok' });
      const url = await api.createWebhook(factory, { name: 'url', auth_mode: 'url_token' });
      const newToken = (await api.post(`/factories/${factory}/webhooks/${token.uid}/rotate-secret`, {})).body;
      const newUrl = (await api.post(`/factories/${factory}/webhooks/${url.uid}/rotate-secret`, {})).body;
      expect(newUrl.ingress_url).toBe(`${server.ingressUrl}/webhooks/w/${url.uid}/${newUrl.secret}`);
      expect((await send(token.ingress_url, '{}', { headers: { authorization: `Bearer ${token.secret}` } })).status).toBe(401);
      expect((await send(token.ingress_url, '{}', { headers: { authorization: `Bearer ${newToken.secret}` } })).status).toBe(202);
      expect((await send(url.ingress_url, '{}')).status).toBe(401);
      expect((await send(newUrl.ingress_url, '{}')).status).toBe(202);
    });
  });
});
