/**
 * Why a delivery was `Rejected (auth)`, over real HTTP: each reason lands in the delivery log
 * (`rejection_reason`, list and get) while the sender's 401 stays the same generic problem. Signatures come
 * from the providers' own libraries (svix, stripe, @octokit/webhooks-methods), as in providers.test.ts.
 * Also: the contract documents every reason the code can record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { REJECTION_REASONS } from '../../src/webhooks/schemes';
import { startTestServer, type TestServer } from '../support/server';
import { expectProblem, restClient, send, type Answer, type RestClient } from '../webhooks/helpers';

const stripe = new Stripe('sk_test_unused');
const contractPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../openapi/v1.yaml');

describe('rejection reasons of Rejected (auth) deliveries', () => {
  let server: TestServer;
  let api: RestClient;
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let n = 0;
  /** The 401 body every rejection shares, less its request path and trace id. */
  let generic: unknown;

  beforeAll(async () => {
    // A budget large enough for every attempt below (one sender address, one webhook per scheme).
    server = await startTestServer({ clock, engine: false, env: { INGRESS_AUTH_FAILURES_PER_MINUTE: '100' } });
    api = restClient(server, server.adminKey);
  });
  afterAll(() => server?.close());

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  async function webhook(body: Record<string, unknown>) {
    const factory = await api.createFactory(`reasons-${++n}`);
    return api.createWebhook(factory, { name: `wh-${n}`, ...body });
  }

  /** Sends, expects the generic 401, and answers the reason the delivery log recorded (list and get agree). */
  async function reasonOf(wh: any, res: Answer): Promise<string> {
    expectProblem(res, 401, 'authentication_required');
    const { trace_id: _trace, instance: _instance, ...body } = res.body as Record<string, unknown>;
    generic ??= body;
    expect(body).toEqual(generic);
    const [latest] = await api.deliveries(wh.factory_uid, wh.uid, '?limit=1');
    expect(latest).toMatchObject({ label: 'Rejected (auth)' });
    const entry = await api.delivery(wh.factory_uid, wh.uid, latest.delivery_id);
    expect(entry.rejection_reason).toBe(latest.rejection_reason);
    return entry.rejection_reason as string;
  }

  it('token: missing token, wrong token, unexpected path token', async () => {
    const wh = await webhook({});
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}'))).toBe('missing token');
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}', { headers: { authorization: 'Basic abc' } }))).toBe('missing token');
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}', { headers: { authorization: `Bearer ${wh.secret}x` } }))).toBe('wrong token');
    expect(await reasonOf(wh, await send(`${wh.ingress_url}/${wh.secret}`, '{}', { headers: { authorization: `Bearer ${wh.secret}` } }))).toBe(
      'unexpected path token',
    );
    // Accepted entries carry no reason.
    const ok = await send(wh.ingress_url, '{}', { headers: { authorization: `Bearer ${wh.secret}` } });
    expect(ok.status).toBe(202);
    expect((await api.delivery(wh.factory_uid, wh.uid, ok.body.delivery_id)).rejection_reason).toBeNull();
  });

  it('url_token: missing token, wrong token', async () => {
    const wh = await webhook({ auth_mode: 'url_token' });
    const base = wh.ingress_url.slice(0, wh.ingress_url.lastIndexOf('/'));
    expect(await reasonOf(wh, await send(base, '{}'))).toBe('missing token');
    expect(await reasonOf(wh, await send(`${base}/not-the-token`, '{}'))).toBe('wrong token');
  });

  it('standard-webhooks (svix): missing header, stale timestamp, no match, and the malformed cases', async () => {
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
    const body = '{"type":"invoice.paid"}';
    const signed = (secret: string, at = clock.now()) => {
      const id = `msg_${randomUUID()}`;
      return {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new SvixWebhook(secret).sign(id, at, body),
      };
    };
    const reason = async (headers: Record<string, string | undefined>) =>
      reasonOf(
        wh,
        await send(wh.ingress_url, body, { headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string> }),
      );

    expect(await reason({})).toBe('missing signature header');
    expect(await reason(signed(wh.secret, new Date(clock.now().getTime() - 301_000)))).toBe('timestamp outside tolerance');
    expect(await reason(signed(wh.secret, new Date(clock.now().getTime() + 3_600_000)))).toBe('timestamp outside tolerance');
    expect(await reason(signed('whsec_' + Buffer.alloc(32, 7).toString('base64')))).toBe('no signature matched');
    expect(await reason({ ...signed(wh.secret), 'webhook-id': undefined })).toBe('missing webhook-id header');
    expect(await reason({ ...signed(wh.secret), 'webhook-timestamp': undefined })).toBe('missing timestamp');
    expect(await reason({ ...signed(wh.secret), 'webhook-timestamp': 'yesterday' })).toBe('invalid timestamp');
    expect(await reason({ ...signed(wh.secret), 'webhook-signature': 'v1a,c2lnbmF0dXJl' })).toBe('no v1 signature');
    expect(await reason({ ...signed(wh.secret), 'webhook-signature': 'v1,' + 'A'.repeat(5000) })).toBe('signature header too large');
    expect((await send(wh.ingress_url, body, { headers: signed(wh.secret) })).status).toBe(202);
  });

  it('standard-webhooks: a webhook whose secret cannot be used says so', async () => {
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'standard-webhooks', provider_secret: 'whsec_***' });
    const id = `msg_${randomUUID()}`;
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds()), 'webhook-signature': 'v1,c2lnbmF0dXJl' };
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}', { headers }))).toBe('invalid signing secret');
  });

  it('stripe (stripe library): missing header, stale timestamp, no match, malformed header, missing timestamp', async () => {
    const secret = 'whsec_' + 'ab12'.repeat(16);
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'stripe', provider_secret: secret });
    const body = '{"id":"evt_1","type":"charge.succeeded"}';
    const header = (over: { secret?: string; timestamp?: number } = {}) =>
      stripe.webhooks.generateTestHeaderString({ payload: body, secret: over.secret ?? secret, timestamp: over.timestamp ?? nowSeconds() });
    const reason = async (signature?: string) =>
      reasonOf(wh, await send(wh.ingress_url, body, { headers: signature === undefined ? {} : { 'stripe-signature': signature } }));

    expect(await reason()).toBe('missing signature header');
    expect(await reason(header({ timestamp: nowSeconds() - 301 }))).toBe('timestamp outside tolerance');
    expect(await reason(header({ secret: 'whsec_other' }))).toBe('no signature matched');
    const v1 = header()
      .split(',')
      .find((p) => p.startsWith('v1='))!;
    expect(await reason(`t=${nowSeconds()},t=${nowSeconds()},${v1}`)).toBe('malformed signature header');
    expect(await reason(v1)).toBe('missing timestamp');
    expect(await reason(`t=${nowSeconds()}`)).toBe('no v1 signature');
    expect((await send(wh.ingress_url, body, { headers: { 'stripe-signature': header() } })).status).toBe(202);
  });

  it('github (@octokit/webhooks-methods): missing header, no match, malformed header, header too large', async () => {
    const secret = 'gh-secret-' + randomUUID();
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'github', provider_secret: secret });
    const body = JSON.stringify({ action: 'opened' });
    const reason = async (signature?: string) =>
      reasonOf(
        wh,
        await send(wh.ingress_url, body, {
          headers: { 'x-github-delivery': randomUUID(), ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }) },
        }),
      );

    expect(await reason()).toBe('missing signature header');
    expect(await reason(await githubSign('not-the-secret', body))).toBe('no signature matched');
    expect(await reason((await githubSign(secret, body)).replace('sha256=', 'sha1='))).toBe('malformed signature header');
    expect(await reason('sha256=' + 'f'.repeat(5000))).toBe('signature header too large');
    expect((await send(wh.ingress_url, body, { headers: { 'x-hub-signature-256': await githubSign(secret, body) } })).status).toBe(202);
  });

  it('a signature webhook still waiting for its provider secret: secret not configured', async () => {
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'github' });
    const body = '{"zen":"x"}';
    expect(await reasonOf(wh, await send(wh.ingress_url, body, { headers: { 'x-hub-signature-256': await githubSign('guess', body) } }))).toBe(
      'secret not configured',
    );
  });

  it('gitlab: missing token, wrong token', async () => {
    const secret = 'gitlab-token-' + randomUUID();
    const wh = await webhook({ auth_mode: 'signature', signature_scheme: 'gitlab', provider_secret: secret });
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}'))).toBe('missing token');
    expect(await reasonOf(wh, await send(wh.ingress_url, '{}', { headers: { 'x-gitlab-token': `${secret}x` } }))).toBe('wrong token');
  });

  it('other labels record no reason', async () => {
    const wh = await webhook({});
    const res = await send(wh.ingress_url, 'not json', { headers: { authorization: `Bearer ${wh.secret}` } });
    expect(res.status).toBe(400);
    const [entry] = await api.deliveries(wh.factory_uid, wh.uid);
    expect(entry).toMatchObject({ label: 'Rejected (invalid JSON)', rejection_reason: null });
  });

  it('the contract documents every reason the server can record', () => {
    const contract = YAML.parse(fs.readFileSync(contractPath, 'utf8'));
    const documented: string = contract.components.schemas.WebhookDelivery.properties.rejection_reason.description;
    for (const reason of REJECTION_REASONS) expect(documented, reason).toContain(`\`${reason}\``);
  });
});
