/**
 * A captured delivery of a scheme whose signature binds the body but not the delivery id (GitHub, Shopify,
 * Linear; Stripe and Slack within their signed timestamp's tolerance) verifies again under any delivery-id
 * header, so the ingress deduplicates it on its signed body as well: sent again under a new, another or no
 * delivery id it is answered and logged as a Duplicate of the accepted one and starts nothing — on SQLite
 * and PostgreSQL, and with two server processes on one database. Signed by the provider's own library where
 * one exists on npm (@octokit/webhooks-methods, stripe, standardwebhooks), by node:crypto following the
 * provider's documentation otherwise (Shopify, Linear, Slack).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createAutomation, runsWhere, startWorld, trigger, unique, type AutomationWorld } from '../automations/helpers';
import { send } from '../webhooks/helpers';

interface Provider {
  scheme: 'github' | 'shopify' | 'linear' | 'stripe' | 'slack';
  /** The provider's own delivery-id header (the sender-set one for providers without). */
  idHeader: string;
  /** A provider secret in the provider's form. */
  secret(): string;
  /** A body as the provider would send it now. */
  body(nowMs: number, n: number): string;
  sign(secret: string, body: string): Promise<Record<string, string>>;
}

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body);
const stripe = new Stripe('sk_test_unused');
const anySecret = () => randomUUID();
let nowMs = 0;
const nowSeconds = () => Math.floor(nowMs / 1000);

const PROVIDERS: Provider[] = [
  {
    scheme: 'github',
    idHeader: 'x-github-delivery',
    secret: anySecret,
    body: (_, n) => JSON.stringify({ action: 'opened', issue: { number: n } }),
    sign: async (secret, body) => ({ 'x-hub-signature-256': await githubSign(secret, body), 'x-github-event': 'issues' }),
  },
  {
    scheme: 'shopify',
    idHeader: 'x-shopify-webhook-id',
    secret: anySecret,
    body: (_, n) => JSON.stringify({ id: n, financial_status: 'paid' }),
    sign: async (secret, body) => ({ 'x-shopify-hmac-sha256': hmac(secret, body).digest('base64'), 'x-shopify-topic': 'orders/paid' }),
  },
  {
    scheme: 'linear',
    idHeader: 'linear-delivery',
    secret: anySecret,
    body: (nowMs, n) => JSON.stringify({ action: 'create', type: 'Issue', data: { number: n }, webhookTimestamp: nowMs }),
    sign: async (secret, body) => ({ 'linear-signature': hmac(secret, body).digest('hex'), 'linear-event': 'Issue' }),
  },
  {
    scheme: 'stripe',
    idHeader: 'x-service-delivery-id',
    secret: () => `whsec_${randomUUID().replaceAll('-', '')}`,
    body: (_, n) => JSON.stringify({ id: `evt_${n}`, type: 'charge.succeeded' }),
    sign: async (secret, body) => ({ 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: nowSeconds() }) }),
  },
  {
    scheme: 'slack',
    idHeader: 'x-service-delivery-id',
    secret: anySecret,
    body: (_, n) => JSON.stringify({ type: 'event_callback', event_id: `Ev${n}` }),
    sign: async (secret, body) => ({
      'x-slack-request-timestamp': String(nowSeconds()),
      'x-slack-signature': 'v0=' + hmac(secret, `v0:${nowSeconds()}:${body}`).digest('hex'),
    }),
  },
];

describe.each(testDatabases())('replayed signed deliveries (%s)', (kind) => {
  let world: AutomationWorld;
  let n = 0;

  beforeAll(async () => {
    world = await startWorld(kind);
    nowMs = world.clock.now().getTime();
  });
  afterAll(() => world?.close());

  /** A signature webhook of `scheme` with one automation on it, so every Accepted delivery starts one run. */
  async function webhookWithAutomation(provider: Provider) {
    const { admin } = world;
    const { scheme } = provider;
    const secret = provider.secret();
    const factory = await admin.createFactory(unique(`replay-${scheme}`));
    const wh = await admin.createWebhook(factory, { name: unique(scheme), auth_mode: 'signature', signature_scheme: scheme, provider_secret: secret });
    const automation = await createAutomation(admin, factory, { triggers: [trigger([wh.uid])] });
    const runs = async () => (await runsWhere(admin, `automation_id=${automation.uid}`)).length;
    const entry = (deliveryId: string) => admin.delivery(factory, wh.uid, deliveryId);
    const log = () => admin.deliveries(factory, wh.uid, '?limit=500');
    return { wh, secret, runs, entry, log };
  }

  describe.each(PROVIDERS)('$scheme', (provider) => {
    it('a captured delivery sent again under a new, another or no delivery id is a Duplicate and starts nothing', async () => {
      const { wh, secret, runs, entry, log } = await webhookWithAutomation(provider);
      const body = provider.body(world.clock.now().getTime(), ++n);
      const signed = await provider.sign(secret, body);
      const first = await send(wh.ingress_url, body, { headers: { ...signed, [provider.idHeader]: randomUUID() } });
      expect(first.status).toBe(202);
      const accepted = first.body.delivery_id as string;
      expect((await entry(accepted)).label).toBe('Accepted');
      expect(await runs()).toBe(1);

      const replays = [
        { ...signed, [provider.idHeader]: randomUUID() },
        signed,
        { ...signed, 'x-service-delivery-id': randomUUID() },
        { ...signed, [provider.idHeader]: randomUUID(), 'x-service-delivery-id': randomUUID() },
      ];
      for (const headers of replays) {
        const replay = await send(wh.ingress_url, body, { headers });
        // Answered exactly as a duplicate delivery is: 202 with its own log entry naming the accepted one.
        expect(replay.status).toBe(202);
        expect(Object.keys(replay.body)).toEqual(['delivery_id']);
        expect(replay.body.delivery_id).not.toBe(accepted);
        expect(await entry(replay.body.delivery_id)).toMatchObject({ label: 'Duplicate', duplicate_of: accepted });
      }
      expect(await runs()).toBe(1);
      const labels = (await log()).map((d) => d.label);
      expect(labels.filter((l) => l === 'Accepted')).toHaveLength(1);
      expect(labels.filter((l) => l === 'Duplicate')).toHaveLength(replays.length);

      // Another body, signed by the sender, is another delivery.
      const other = provider.body(world.clock.now().getTime(), ++n);
      const next = await send(wh.ingress_url, other, { headers: { ...(await provider.sign(secret, other)), [provider.idHeader]: randomUUID() } });
      expect(next.status).toBe(202);
      expect((await entry(next.body.delivery_id)).label).toBe('Accepted');
      expect(await runs()).toBe(2);
    });
  });

  it('20 replays under distinct delivery ids at once, spread over two server processes on one database → 1 Accepted, 1 run', async () => {
    const { server } = world;
    const { wh, secret, runs, log } = await webhookWithAutomation(PROVIDERS[0]!);
    const { startServer } = await import('../../src/main');
    const second = await startServer({ ...server.ctx.settings, port: 0 }, { clock: world.clock, engine: false, log: server.ctx.log });
    try {
      const body = PROVIDERS[0]!.body(world.clock.now().getTime(), ++n);
      const signed = await PROVIDERS[0]!.sign(secret, body);
      const urls = [wh.ingress_url, `${second.ingressUrl}${new URL(wh.ingress_url).pathname}`];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(urls[i % 2]!, body, { headers: { ...signed, 'x-github-delivery': randomUUID() } })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
      const entries = await log();
      const accepted = entries.filter((e) => e.label === 'Accepted');
      expect(accepted).toHaveLength(1);
      const duplicates = entries.filter((e) => e.label === 'Duplicate');
      expect(duplicates).toHaveLength(19);
      expect(new Set(duplicates.map((d) => d.duplicate_of))).toEqual(new Set([accepted[0].delivery_id]));
      expect(await runs()).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('schemes that sign the delivery id keep telling deliveries apart by it: identical Standard Webhooks bodies under two ids are two deliveries', async () => {
    const { admin } = world;
    const { Webhook } = await import('standardwebhooks');
    const factory = await admin.createFactory(unique('replay-standard'));
    const wh = await admin.createWebhook(factory, { name: unique('standard'), auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
    const body = '{"type":"ping"}';
    const labels: string[] = [];
    for (const id of [`msg_${randomUUID()}`, `msg_${randomUUID()}`]) {
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(world.clock.now().getTime() / 1000)),
        'webhook-signature': new Webhook(wh.secret).sign(id, world.clock.now(), body),
      };
      const res = await send(wh.ingress_url, body, { headers });
      expect(res.status).toBe(202);
      labels.push((await admin.delivery(factory, wh.uid, res.body.delivery_id)).label);
    }
    expect(labels).toEqual(['Accepted', 'Accepted']);
  });

  it('GitLab, whose token binds no body, keeps telling identical bodies apart by X-Gitlab-Event-UUID', async () => {
    const { admin } = world;
    const factory = await admin.createFactory(unique('replay-gitlab'));
    const secret = randomUUID();
    const wh = await admin.createWebhook(factory, { name: unique('gitlab'), auth_mode: 'signature', signature_scheme: 'gitlab', provider_secret: secret });
    const labels: string[] = [];
    for (const id of [randomUUID(), randomUUID()]) {
      const res = await send(wh.ingress_url, '{"object_kind":"push"}', { headers: { 'x-gitlab-token': secret, 'x-gitlab-event-uuid': id } });
      expect(res.status).toBe(202);
      labels.push((await admin.delivery(factory, wh.uid, res.body.delivery_id)).label);
    }
    expect(labels).toEqual(['Accepted', 'Accepted']);
  });
});
