/**
 * Provider signature schemes, checked against each provider's OWN signing library where one exists on npm:
 * `standardwebhooks`, `svix`, `stripe`, `@octokit/webhooks-methods`, plus the Standard Webhooks published
 * test vector. Slack, Shopify, Linear and GitLab publish no npm signer; their signatures are computed below
 * with node:crypto exactly as each provider's documentation describes (cited at each helper).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import {
  SIGNATURE_SCHEME_NAMES,
  isSignatureSchemeName,
  signatureSchemes,
  timingSafeEqualBytes,
  timingSafeEqualString,
  type IncomingHeaders,
  type SignatureSchemeName,
  type VerifyInput,
  type VerifyResult,
} from '../../src/webhooks/schemes';

const NOW = new Date('2025-06-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const TOLERANCE = 300;
// Non-ASCII, odd whitespace and key order: re-serializing this JSON would change the bytes.
const BODY = Buffer.from('{"type":"order.created",  "data":{"name":"Zoë ✓","n":1.50}}\n', 'utf8');

const sw = signatureSchemes['standard-webhooks'];
const stripeScheme = signatureSchemes.stripe;
const slack = signatureSchemes.slack;
const github = signatureSchemes.github;
const shopify = signatureSchemes.shopify;
const linear = signatureSchemes.linear;
const gitlab = signatureSchemes.gitlab;

function input(over: Partial<VerifyInput> & { headers: IncomingHeaders; secret: string }): VerifyInput {
  return { rawBody: BODY, now: NOW, toleranceSeconds: TOLERANCE, ...over };
}

/** Flips one bit of one byte. */
function tamper(buf: Buffer, index = 10): Buffer {
  const copy = Buffer.from(buf);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

/** Lower-cases header names as node:http does. */
function lower(h: Record<string, string>): IncomingHeaders {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function expectFail(result: VerifyResult, reason?: string | RegExp): void {
  expect(result.ok).toBe(false);
  if (!result.ok && reason !== undefined) {
    if (typeof reason === 'string') expect(result.reason).toBe(reason);
    else expect(result.reason).toMatch(reason);
  }
}

// ---------------------------------------------------------------------------------------------------------
describe('Standard Webhooks', () => {
  const secret = 'whsec_' + randomBytes(32).toString('base64');
  const signer = new StandardWebhook(secret);
  const msgId = 'msg_2mRrXc0QeN5ETNlOiAhR8K3pvaB';

  const signedHeaders = (opts: { ts?: number; body?: Buffer; id?: string; by?: StandardWebhook } = {}) => {
    const ts = opts.ts ?? NOW_S;
    const id = opts.id ?? msgId;
    return {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': (opts.by ?? signer).sign(id, new Date(ts * 1000), opts.body ?? BODY),
    };
  };

  it('verifies the published Standard Webhooks test vector', () => {
    // standard-webhooks/standard-webhooks libraries' shared vector.
    const result = sw.verify({
      rawBody: Buffer.from('{"test": 2432232314}'),
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      now: new Date(1614265330 * 1000),
      toleranceSeconds: TOLERANCE,
    });
    expect(result).toEqual({ ok: true });
  });

  it('the test vector fails with a different body, id or secret', () => {
    const base = {
      rawBody: Buffer.from('{"test": 2432232314}'),
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      now: new Date(1614265330 * 1000),
      toleranceSeconds: TOLERANCE,
    };
    expectFail(sw.verify({ ...base, rawBody: Buffer.from('{"test":2432232314}') }), 'no signature matched');
    expectFail(sw.verify({ ...base, headers: { ...base.headers, 'webhook-id': 'msg_other' } }), 'no signature matched');
    expectFail(sw.verify({ ...base, secret: 'whsec_' + randomBytes(24).toString('base64') }), 'no signature matched');
    // Same vector one hour later: replayed.
    expectFail(sw.verify({ ...base, now: new Date((1614265330 + 3600) * 1000) }), 'timestamp outside tolerance');
  });

  it('accepts a delivery signed by the standardwebhooks library', () => {
    expect(sw.verify(input({ headers: signedHeaders(), secret }))).toEqual({ ok: true });
  });

  it('accepts the secret without the whsec_ prefix', () => {
    expect(sw.verify(input({ headers: signedHeaders(), secret: secret.slice('whsec_'.length) }))).toEqual({ ok: true });
  });

  it('rejects the wrong secret', () => {
    const other = 'whsec_' + randomBytes(32).toString('base64');
    expectFail(sw.verify(input({ headers: signedHeaders(), secret: other })), 'no signature matched');
  });

  it('rejects a body with one byte changed', () => {
    expectFail(sw.verify(input({ rawBody: tamper(BODY), headers: signedHeaders(), secret })), 'no signature matched');
  });

  it('verifies the raw bytes, not re-serialized JSON', () => {
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8'))));
    expect(reserialized.equals(BODY)).toBe(false);
    expectFail(sw.verify(input({ rawBody: reserialized, headers: signedHeaders(), secret })), 'no signature matched');
  });

  it('rejects missing headers', () => {
    const h = signedHeaders();
    expectFail(sw.verify(input({ headers: {}, secret })), 'missing signature header');
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-signature': undefined }, secret })), 'missing signature header');
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-signature': '' }, secret })), 'missing signature header');
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-id': undefined }, secret })), 'missing webhook-id header');
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-timestamp': undefined }, secret })), 'missing timestamp');
  });

  it('rejects timestamps older than the tolerance and accepts ones just inside it', () => {
    const at = (ts: number) => sw.verify(input({ headers: signedHeaders({ ts }), secret }));
    expect(at(NOW_S - 299)).toEqual({ ok: true });
    expect(at(NOW_S - 300)).toEqual({ ok: true });
    expectFail(at(NOW_S - 301), 'timestamp outside tolerance');
    expectFail(at(NOW_S - 86_400), 'timestamp outside tolerance');
  });

  it('rejects timestamps in the future beyond the tolerance', () => {
    const at = (ts: number) => sw.verify(input({ headers: signedHeaders({ ts }), secret }));
    expect(at(NOW_S + 299)).toEqual({ ok: true });
    expectFail(at(NOW_S + 301), 'timestamp outside tolerance');
    expectFail(at(NOW_S + 86_400), 'timestamp outside tolerance');
  });

  it('honours a custom tolerance', () => {
    const headers = signedHeaders({ ts: NOW_S - 120 });
    expect(sw.verify(input({ headers, secret, toleranceSeconds: 300 }))).toEqual({ ok: true });
    expectFail(sw.verify(input({ headers, secret, toleranceSeconds: 60 })), 'timestamp outside tolerance');
  });

  it('accepts several space-separated signatures when only the second matches', () => {
    const h = signedHeaders();
    const wrong = new StandardWebhook('whsec_' + randomBytes(32).toString('base64')).sign(msgId, NOW, BODY);
    const header = `${wrong} ${h['webhook-signature']}`;
    expect(header.split(' ')).toHaveLength(2);
    expect(sw.verify(input({ headers: { ...h, 'webhook-signature': header }, secret }))).toEqual({ ok: true });
  });

  it('ignores non-v1 entries (v1a, v2, garbage) and still finds the v1 one', () => {
    const h = signedHeaders();
    const good = h['webhook-signature'].split(',')[1]!;
    const header = `v1a,${randomBytes(64).toString('base64')} v2,${good} nonsense ${h['webhook-signature']}`;
    expect(sw.verify(input({ headers: { ...h, 'webhook-signature': header }, secret }))).toEqual({ ok: true });
    // The right bytes under a version other than v1 do not count.
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-signature': `v2,${good}` }, secret })), 'no v1 signature');
  });

  it('rejects when none of several signatures matches', () => {
    const h = signedHeaders();
    const wrong = () => new StandardWebhook('whsec_' + randomBytes(32).toString('base64')).sign(msgId, NOW, BODY);
    const header = `${wrong()} ${wrong()} ${wrong()}`;
    expectFail(sw.verify(input({ headers: { ...h, 'webhook-signature': header }, secret })), 'no signature matched');
  });

  it('accepts svix-* headers signed by the svix library', () => {
    const svix = new SvixWebhook(secret);
    const headers = {
      'svix-id': msgId,
      'svix-timestamp': String(NOW_S),
      'svix-signature': svix.sign(msgId, NOW, BODY),
    };
    expect(sw.verify(input({ headers, secret }))).toEqual({ ok: true });
    expect(sw.hasSignature(headers)).toBe(true);
    expectFail(sw.verify(input({ rawBody: tamper(BODY), headers, secret })), 'no signature matched');
    expectFail(sw.verify(input({ headers: { ...headers, 'svix-timestamp': String(NOW_S - 600) }, secret })), 'timestamp outside tolerance');
    expectFail(sw.verify(input({ headers: { ...headers, 'svix-id': undefined }, secret })), 'missing webhook-id header');
    // And the svix library agrees with what the standardwebhooks library signs (its verify reads the real clock).
    expect(svix.verify(BODY, signedHeaders({ ts: Math.floor(Date.now() / 1000) }))).toBeDefined();
  });

  it('accepts svix-* headers with several signatures where only the second matches', () => {
    const svix = new SvixWebhook(secret);
    const wrong = new SvixWebhook('whsec_' + randomBytes(32).toString('base64')).sign(msgId, NOW, BODY);
    const headers = {
      'svix-id': msgId,
      'svix-timestamp': String(NOW_S),
      'svix-signature': `${wrong} ${svix.sign(msgId, NOW, BODY)}`,
    };
    expect(sw.verify(input({ headers, secret }))).toEqual({ ok: true });
  });

  it('rejects malformed headers without throwing', () => {
    const h = signedHeaders();
    const cases: Array<[Partial<Record<string, string>>, string | RegExp]> = [
      [{ 'webhook-timestamp': 'yesterday' }, 'invalid timestamp'],
      [{ 'webhook-timestamp': '-5' }, 'invalid timestamp'],
      [{ 'webhook-timestamp': '1e9' }, 'invalid timestamp'],
      [{ 'webhook-timestamp': '9'.repeat(400) }, 'invalid timestamp'],
      [{ 'webhook-signature': 'v1,' }, 'no signature matched'],
      [{ 'webhook-signature': 'v1,!!!not-base64!!!' }, 'no signature matched'],
      [{ 'webhook-signature': 'v1' }, 'no v1 signature'],
      [{ 'webhook-signature': ',,,, , ,' }, 'no v1 signature'],
      [{ 'webhook-signature': '\u0000\u00ff\ud83d' }, 'no v1 signature'],
      [{ 'webhook-signature': 'v1,' + 'A'.repeat(10_000) }, 'signature header too large'],
      [{ 'webhook-signature': ' '.repeat(1_000_000) }, 'signature header too large'],
      [{ 'webhook-id': 'x'.repeat(100_000) }, 'webhook-id header too large'],
    ];
    for (const [patch, reason] of cases) {
      const result = sw.verify(input({ headers: { ...h, ...patch }, secret }));
      expectFail(result, reason);
    }
  });

  it('treats an unusable configured secret as a failure, not an exception', () => {
    for (const bad of ['', 'whsec_', 'whsec_***', 'whsec_a']) {
      expectFail(sw.verify(input({ headers: signedHeaders(), secret: bad })), 'invalid signing secret');
    }
  });

  it('generates whsec_ secrets usable by the standardwebhooks and svix libraries', () => {
    const generated = sw.generateSecret();
    expect(generated).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(generated.slice(6), 'base64')).toHaveLength(32);
    const headers = signedHeaders({ by: new StandardWebhook(generated) });
    expect(sw.verify(input({ headers, secret: generated }))).toEqual({ ok: true });
    // The libraries accept what we generate and verify deliveries against it (their verify reads the real clock).
    const live = signedHeaders({ by: new StandardWebhook(generated), ts: Math.floor(Date.now() / 1000) });
    expect(new SvixWebhook(generated).verify(BODY.toString('utf8'), live)).toBeDefined();
    expect(new StandardWebhook(generated).verify(BODY, live)).toBeDefined();
  });

  it('names webhook-id then svix-id as delivery headers', () => {
    expect(sw.deliveryIdHeaders).toEqual(['webhook-id', 'svix-id']);
    expect(sw.hasSignature({})).toBe(false);
    expect(sw.hasSignature({ 'webhook-signature': 'v1,x' })).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Stripe', () => {
  const stripe = new Stripe('sk_test_x');
  const secret = 'whsec_' + randomBytes(24).toString('hex');
  const header = (opts: { ts?: number; body?: Buffer; secret?: string } = {}) =>
    stripe.webhooks.generateTestHeaderString({
      payload: (opts.body ?? BODY).toString('utf8'),
      secret: opts.secret ?? secret,
      timestamp: opts.ts ?? NOW_S,
    });
  const verify = (h: string | undefined, over: Partial<VerifyInput> = {}) =>
    stripeScheme.verify(input({ headers: { 'stripe-signature': h }, secret, ...over }));

  it('accepts a header generated by the stripe library, and stripe agrees', () => {
    const h = header();
    expect(verify(h)).toEqual({ ok: true });
    const event = stripe.webhooks.constructEvent(BODY, h, secret, TOLERANCE, undefined, NOW.getTime());
    expect(event).toMatchObject({ type: 'order.created' });
  });

  it('uses the whole whsec_ secret verbatim as the key (not base64-decoded)', () => {
    const h = header();
    expectFail(verify(h, { secret: secret.slice('whsec_'.length) }), 'no signature matched');
  });

  it('rejects the wrong secret', () => {
    expectFail(verify(header({ secret: 'whsec_' + randomBytes(24).toString('hex') })), 'no signature matched');
  });

  it('rejects a body with one byte changed', () => {
    expectFail(verify(header(), { rawBody: tamper(BODY) }), 'no signature matched');
  });

  it('rejects a missing header', () => {
    expectFail(stripeScheme.verify(input({ headers: {}, secret })), 'missing signature header');
    expect(stripeScheme.hasSignature({})).toBe(false);
    expect(stripeScheme.hasSignature({ 'stripe-signature': header() })).toBe(true);
  });

  it('rejects old and future timestamps', () => {
    expect(verify(header({ ts: NOW_S - 300 }))).toEqual({ ok: true });
    expectFail(verify(header({ ts: NOW_S - 301 })), 'timestamp outside tolerance');
    expectFail(verify(header({ ts: NOW_S - 3600 })), 'timestamp outside tolerance');
    expectFail(verify(header({ ts: NOW_S + 301 })), 'timestamp outside tolerance');
  });

  it('accepts several v1 signatures when only the second matches', () => {
    const good = header();
    const wrong = header({ secret: 'whsec_' + randomBytes(24).toString('hex') });
    const wrongV1 = wrong.split(',')[1]!;
    const goodV1 = good.split(',')[1]!;
    expect(verify(`t=${NOW_S},${wrongV1},${goodV1}`)).toEqual({ ok: true });
    // Stripe's own verifier agrees.
    expect(stripe.webhooks.constructEvent(BODY, `t=${NOW_S},${wrongV1},${goodV1}`, secret, TOLERANCE, undefined, NOW.getTime())).toMatchObject({
      type: 'order.created',
    });
    // v0 entries (test-mode legacy scheme) are ignored.
    expect(verify(`t=${NOW_S},v0=${'0'.repeat(64)},${goodV1}`)).toEqual({ ok: true });
    expectFail(verify(`t=${NOW_S},${wrongV1},${wrongV1}`), 'no signature matched');
  });

  it('rejects malformed headers without throwing', () => {
    const goodV1 = header().split(',')[1]!;
    const cases: Array<[string, string]> = [
      ['garbage', 'missing timestamp'],
      [goodV1, 'missing timestamp'],
      [`t=${NOW_S}`, 'no v1 signature'],
      [`t=${NOW_S},v0=abc`, 'no v1 signature'],
      [`t=abc,${goodV1}`, 'invalid timestamp'],
      [`t=,${goodV1}`, 'invalid timestamp'],
      [`t=${NOW_S},t=${NOW_S},${goodV1}`, 'malformed signature header'],
      [`t=${NOW_S},v1=zz-not-hex`, 'no signature matched'],
      [`t=${NOW_S},v1=`, 'no signature matched'],
      [`t=${NOW_S},v1=${'a'.repeat(10_000)}`, 'signature header too large'],
      [',,,,===,=,', 'missing timestamp'],
    ];
    for (const [h, reason] of cases) expectFail(verify(h), reason);
  });

  it('has no provider delivery header and a whsec_ generated secret', () => {
    expect(stripeScheme.deliveryIdHeaders).toEqual([]);
    const generated = stripeScheme.generateSecret();
    expect(generated).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(verify(header({ secret: generated }), { secret: generated })).toEqual({ ok: true });
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('GitHub', () => {
  const secret = randomBytes(20).toString('hex');
  const verify = (h: string | undefined, over: Partial<VerifyInput> = {}) => github.verify(input({ headers: { 'x-hub-signature-256': h }, secret, ...over }));

  it('accepts a signature from @octokit/webhooks-methods', async () => {
    expect(verify(await octokitSign(secret, BODY.toString('utf8')))).toEqual({ ok: true });
  });

  it('accepts an upper-case hex signature', async () => {
    const sig = await octokitSign(secret, BODY.toString('utf8'));
    expect(verify('sha256=' + sig.slice(7).toUpperCase())).toEqual({ ok: true });
  });

  it('rejects the wrong secret, a tampered body and a missing header', async () => {
    expectFail(verify(await octokitSign('not-the-secret', BODY.toString('utf8'))), 'no signature matched');
    expectFail(verify(await octokitSign(secret, BODY.toString('utf8')), { rawBody: tamper(BODY) }), 'no signature matched');
    expectFail(github.verify(input({ headers: {}, secret })), 'missing signature header');
    // The SHA-1 header alone is not accepted.
    expectFail(github.verify(input({ headers: { 'x-hub-signature': 'sha1=' + 'a'.repeat(40) }, secret })), 'missing signature header');
  });

  it('rejects malformed headers without throwing', () => {
    expectFail(verify('sha1=' + 'a'.repeat(40)), 'malformed signature header');
    expectFail(verify('a'.repeat(64)), 'malformed signature header');
    expectFail(verify('sha256='), 'no signature matched');
    expectFail(verify('sha256=not hex at all'), 'no signature matched');
    expectFail(verify('sha256=' + 'f'.repeat(100_000)), 'signature header too large');
  });

  it('names X-GitHub-Delivery as its delivery header', () => {
    expect(github.deliveryIdHeaders).toEqual(['x-github-delivery']);
    expect(github.generateSecret()).toMatch(/^[0-9a-f]{64}$/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Slack', () => {
  // No npm signer: computed per https://api.slack.com/authentication/verifying-requests-from-slack —
  // basestring `v0:{X-Slack-Request-Timestamp}:{raw body}`, HMAC-SHA256 with the signing secret, hex,
  // sent as `X-Slack-Signature: v0=<hex>`.
  const secret = randomBytes(16).toString('hex');
  const slackSign = (ts: number, body: Buffer, key = secret) => 'v0=' + createHmac('sha256', key).update(`v0:${ts}:`).update(body).digest('hex');
  const headers = (ts = NOW_S, sig = slackSign(ts, BODY)) => lower({ 'X-Slack-Signature': sig, 'X-Slack-Request-Timestamp': String(ts) });

  it('accepts a correctly signed request', () => {
    expect(slack.verify(input({ headers: headers(), secret }))).toEqual({ ok: true });
  });

  it('rejects the wrong secret, a tampered body and missing headers', () => {
    expectFail(slack.verify(input({ headers: headers(NOW_S, slackSign(NOW_S, BODY, 'other')), secret })), 'no signature matched');
    expectFail(slack.verify(input({ rawBody: tamper(BODY), headers: headers(), secret })), 'no signature matched');
    expectFail(slack.verify(input({ headers: {}, secret })), 'missing signature header');
    expectFail(slack.verify(input({ headers: { 'x-slack-signature': slackSign(NOW_S, BODY) }, secret })), 'missing timestamp');
  });

  it('rejects old and future timestamps (Slack requires the 5-minute window)', () => {
    expect(slack.verify(input({ headers: headers(NOW_S - 300), secret }))).toEqual({ ok: true });
    expectFail(slack.verify(input({ headers: headers(NOW_S - 301), secret })), 'timestamp outside tolerance');
    expectFail(slack.verify(input({ headers: headers(NOW_S + 301), secret })), 'timestamp outside tolerance');
  });

  it('rejects malformed headers without throwing', () => {
    const h = headers();
    expectFail(slack.verify(input({ headers: { ...h, 'x-slack-request-timestamp': 'now' }, secret })), 'invalid timestamp');
    expectFail(slack.verify(input({ headers: { ...h, 'x-slack-signature': 'v1=abc' }, secret })), 'malformed signature header');
    expectFail(slack.verify(input({ headers: { ...h, 'x-slack-signature': 'v0=' }, secret })), 'no signature matched');
    expectFail(slack.verify(input({ headers: { ...h, 'x-slack-signature': 'v0=' + 'a'.repeat(50_000) }, secret })), 'signature header too large');
  });

  it('has no provider delivery header', () => {
    expect(slack.deliveryIdHeaders).toEqual([]);
    expect(slack.hasSignature(headers())).toBe(true);
    expect(slack.hasSignature({ 'x-slack-request-timestamp': String(NOW_S) })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Shopify', () => {
  // No npm signer in this workspace: computed per Shopify's docs ("Verify the webhook") — HMAC-SHA256 of the
  // raw body with the app's client secret, base64, sent as `X-Shopify-Hmac-Sha256`.
  const secret = randomBytes(16).toString('hex');
  const shopifySign = (body: Buffer, key = secret) => createHmac('sha256', key).update(body).digest('base64');
  const verify = (h: string | undefined, over: Partial<VerifyInput> = {}) =>
    shopify.verify(input({ headers: { 'x-shopify-hmac-sha256': h }, secret, ...over }));

  it('accepts a correctly signed request', () => {
    expect(verify(shopifySign(BODY))).toEqual({ ok: true });
  });

  it('rejects the wrong secret, a tampered body and a missing header', () => {
    expectFail(verify(shopifySign(BODY, 'other')), 'no signature matched');
    expectFail(verify(shopifySign(BODY), { rawBody: tamper(BODY) }), 'no signature matched');
    expectFail(shopify.verify(input({ headers: {}, secret })), 'missing signature header');
  });

  it('rejects malformed headers without throwing', () => {
    expectFail(verify('%%%not base64%%%'), 'no signature matched');
    expectFail(verify(createHmac('sha256', secret).update(BODY).digest('hex')), 'no signature matched');
    expectFail(verify(shopifySign(BODY).toLowerCase()), 'no signature matched');
    expectFail(verify('A'.repeat(20_000)), 'signature header too large');
  });

  it('names X-Shopify-Webhook-Id as its delivery header', () => {
    expect(shopify.deliveryIdHeaders).toEqual(['x-shopify-webhook-id']);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Linear', () => {
  // No npm signer used: computed per Linear's docs ("Securing webhooks") — HMAC-SHA256 of the raw body with
  // the webhook signing secret, hex, sent as `Linear-Signature`.
  const secret = 'lin_wh_' + randomBytes(24).toString('base64url');
  const linearSign = (body: Buffer, key = secret) => createHmac('sha256', key).update(body).digest('hex');
  const verify = (h: string | undefined, over: Partial<VerifyInput> = {}) => linear.verify(input({ headers: { 'linear-signature': h }, secret, ...over }));

  it('accepts a correctly signed, fresh request', () => {
    const body = Buffer.from(`{"action":"create","webhookTimestamp":${NOW.getTime()}}`);
    expect(verify(linearSign(body), { rawBody: body })).toEqual({ ok: true });
  });

  it("checks the signed body's webhookTimestamp: within a minute of now, else refused as a replay", () => {
    const signed = (webhookTimestamp: unknown) => {
      const body = Buffer.from(JSON.stringify({ action: 'create', webhookTimestamp }));
      return verify(linearSign(body), { rawBody: body });
    };
    expect(signed(NOW.getTime() - 59_000)).toEqual({ ok: true });
    expect(signed(NOW.getTime() + 30_000)).toEqual({ ok: true });
    expectFail(signed(NOW.getTime() - 61_000), 'timestamp outside tolerance');
    expectFail(signed((NOW_S - 30 * 86_400) * 1000), 'timestamp outside tolerance');
    expectFail(signed('1700000000000'), 'invalid timestamp');
    expectFail(signed(1.5), 'invalid timestamp');
    const untimed = Buffer.from('{"action":"create"}');
    expectFail(verify(linearSign(untimed), { rawBody: untimed }), 'missing timestamp');
    // A shorter operator tolerance applies to Linear too.
    const body = Buffer.from(JSON.stringify({ webhookTimestamp: NOW.getTime() - 20_000 }));
    expectFail(verify(linearSign(body), { rawBody: body, toleranceSeconds: 10 }), 'timestamp outside tolerance');
  });

  it('rejects the wrong secret, a tampered body and a missing header', () => {
    expectFail(verify(linearSign(BODY, 'other')), 'no signature matched');
    expectFail(verify(linearSign(BODY), { rawBody: tamper(BODY) }), 'no signature matched');
    expectFail(linear.verify(input({ headers: {}, secret })), 'missing signature header');
  });

  it('rejects malformed headers without throwing', () => {
    expectFail(verify('sha256=' + linearSign(BODY)), 'malformed signature header');
    expectFail(verify('zz'), 'malformed signature header');
    expectFail(verify('abcd'), 'no signature matched');
    expectFail(verify('a'.repeat(20_000)), 'signature header too large');
  });

  it('names Linear-Delivery as its delivery header', () => {
    expect(linear.deliveryIdHeaders).toEqual(['linear-delivery']);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('GitLab', () => {
  // GitLab has no signature: per its docs the configured secret token is sent verbatim in X-Gitlab-Token.
  const secret = gitlab.generateSecret();
  const verify = (h: string | undefined, over: Partial<VerifyInput> = {}) => gitlab.verify(input({ headers: { 'x-gitlab-token': h }, secret, ...over }));

  it('accepts the exact token', () => {
    expect(verify(secret)).toEqual({ ok: true });
    // There is no signature over the body, so any body passes with the right token.
    expect(verify(secret, { rawBody: tamper(BODY) })).toEqual({ ok: true });
  });

  it('rejects a wrong, truncated, extended or missing token', () => {
    expectFail(verify(gitlab.generateSecret()), 'wrong token');
    expectFail(verify(secret.slice(0, -1)), 'wrong token');
    expectFail(verify(secret + 'x'), 'wrong token');
    expectFail(verify(secret.toUpperCase()), 'wrong token');
    expectFail(gitlab.verify(input({ headers: {}, secret })), 'missing token');
    expectFail(verify('x'.repeat(50_000)), 'signature header too large');
  });

  it('names X-Gitlab-Event-UUID as its delivery header and generates URL-safe tokens', () => {
    expect(gitlab.deliveryIdHeaders).toEqual(['x-gitlab-event-uuid']);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('scheme registry', () => {
  it('has exactly the contract scheme names, each under its own name', () => {
    expect(Object.keys(signatureSchemes).sort()).toEqual([...SIGNATURE_SCHEME_NAMES].sort());
    expect([...SIGNATURE_SCHEME_NAMES].sort()).toEqual(['github', 'gitlab', 'linear', 'shopify', 'slack', 'standard-webhooks', 'stripe'].sort());
    for (const [name, scheme] of Object.entries(signatureSchemes)) {
      expect(scheme.name).toBe(name);
      for (const h of scheme.deliveryIdHeaders) expect(h).toBe(h.toLowerCase());
    }
  });

  it('isSignatureSchemeName narrows only known names', () => {
    for (const n of SIGNATURE_SCHEME_NAMES) expect(isSignatureSchemeName(n)).toBe(true);
    for (const n of ['svix', 'Stripe', '', 'toString', '__proto__', 'hasOwnProperty', 1, null, undefined, {}]) {
      expect(isSignatureSchemeName(n)).toBe(false);
    }
  });

  it('generates distinct secrets of at least 32 random bytes for every scheme', () => {
    for (const name of SIGNATURE_SCHEME_NAMES) {
      const scheme = signatureSchemes[name as SignatureSchemeName];
      const a = scheme.generateSecret();
      const b = scheme.generateSecret();
      expect(a).not.toBe(b);
      expect(a.replace(/^whsec_/, '').length).toBeGreaterThanOrEqual(43);
    }
  });

  it('rejects an unsigned request and never throws on hostile input, for every scheme', () => {
    const hostileValues = [
      '',
      ' ',
      ',',
      '=',
      'v1,',
      'v0=',
      'sha256=',
      't=,v1=',
      '\u0000',
      '\ud800',
      'é'.repeat(3000),
      'A'.repeat(1_000_000),
      'v1,' + '+/=='.repeat(500),
    ];
    const headerNames = [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'svix-id',
      'svix-timestamp',
      'svix-signature',
      'stripe-signature',
      'x-slack-signature',
      'x-slack-request-timestamp',
      'x-hub-signature-256',
      'x-shopify-hmac-sha256',
      'linear-signature',
      'x-gitlab-token',
    ];
    const secrets = ['', 'whsec_', 'whsec_!!', 'secret', 'x'.repeat(10_000)];
    for (const scheme of Object.values(signatureSchemes)) {
      const unsigned = scheme.verify(input({ headers: {}, secret: 'secret' }));
      // GitLab sends a token, not a signature.
      expectFail(unsigned, scheme.name === 'gitlab' ? 'missing token' : 'missing signature header');
      expect(scheme.hasSignature({})).toBe(false);
      for (const v of hostileValues) {
        const headers = Object.fromEntries(headerNames.map((n) => [n, v]));
        for (const secret of secrets) {
          let result: VerifyResult | undefined;
          expect(() => {
            result = scheme.verify({ rawBody: BODY, headers, secret, now: NOW, toleranceSeconds: TOLERANCE });
          }).not.toThrow();
          expect(result?.ok).toBe(false);
          if (result && !result.ok) expect(result.reason.length).toBeGreaterThan(0);
        }
      }
      // Odd clock / tolerance inputs and an empty body don't throw either.
      expect(() => scheme.verify({ rawBody: Buffer.alloc(0), headers: {}, secret: 's', now: new Date(NaN), toleranceSeconds: NaN })).not.toThrow();
      // A header object with non-string values (e.g. an unconverted node array) counts as absent.
      const weird = { 'webhook-signature': ['v1,x'] } as unknown as IncomingHeaders;
      expect(() => scheme.verify(input({ headers: weird, secret: 's' }))).not.toThrow();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('timingSafeEqualString / timingSafeEqualBytes', () => {
  it('compares strings of any length without throwing', () => {
    expect(timingSafeEqualString('abc', 'abc')).toBe(true);
    expect(timingSafeEqualString('', '')).toBe(true);
    expect(timingSafeEqualString('abc', 'abd')).toBe(false);
    expect(timingSafeEqualString('abc', 'abcd')).toBe(false);
    expect(timingSafeEqualString('', 'a')).toBe(false);
    expect(timingSafeEqualString('é', 'e\u0301')).toBe(false);
    expect(timingSafeEqualString('x'.repeat(100_000), 'x'.repeat(100_000))).toBe(true);
  });

  it('compares bytes of any length without throwing', () => {
    expect(timingSafeEqualBytes(Buffer.from([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqualBytes(Buffer.from([1, 2, 3]), Buffer.from([1, 2]))).toBe(false);
    expect(timingSafeEqualBytes(Buffer.alloc(0), Buffer.alloc(0))).toBe(true);
  });
});
