/**
 * The ingress under generated hostile input, over real HTTP (node:http, and raw node:net sockets for what
 * node:http will not send), on SQLite and PostgreSQL: a token, a url_token and a Standard Webhooks signature
 * webhook get seeded random bytes, invalid UTF-8, deep nesting, huge numbers, `__proto__` keys, oversized
 * and slow bodies, duplicate and oversized headers and every method. Each answer is the contract's
 * (openapi/v1.yaml, receiveWebhookDelivery) with its delivery-log label, never a 5xx, and a burst of
 * oversized bodies leaves the process's memory within the bound of docs/decisions.md (Isolation and
 * hostile input).
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { trigger } from '../automations/helpers';
import { expectProblem, restClient, send, type Answer, type RestClient } from '../webhooks/helpers';
import { raw, type RawAnswer } from '../support/raw-http';

const MAX = 262_144;
/** docs/decisions.md (Isolation and hostile input): RSS growth allowed over a burst of oversized requests. */
const RSS_BOUND_BYTES = 64 * 1024 * 1024;

/** mulberry32: a small seeded PRNG, so every run sends the same "random" cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the contract calls valid JSON: UTF-8 text (a leading BOM tolerated) that parses. The oracle of the fuzz cases. */
function isValidJson(bytes: Buffer): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A random JSON value: unusual keys, any code point in strings, big and tiny numbers. */
function randomJson(next: () => number, depth = 0): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const kind = depth > 4 ? Math.floor(next() * 4) : Math.floor(next() * 6);
  switch (kind) {
    case 0:
      return pick([null, true, false]);
    case 1:
      return pick([0, -0, 1e308, -1e-308, 2 ** 53 + 1, Math.floor(next() * 1e9) - 5e8, next()]);
    case 2:
    case 3: {
      let s = '';
      for (let i = Math.floor(next() * 12); i > 0; i--) {
        const cp = pick([Math.floor(next() * 0x80), Math.floor(next() * 0xd800), 0xe000 + Math.floor(next() * 0x1f00), 0x10000 + Math.floor(next() * 0xfffff)]);
        s += String.fromCodePoint(cp);
      }
      return s;
    }
    case 4:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
    default: {
      const keys = ['__proto__', 'constructor', 'prototype', 'action', '', 'a.b', '$ref', 'toString'];
      const value: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 4); i > 0; i--) {
        Object.defineProperty(value, pick(keys), { value: randomJson(next, depth + 1), enumerable: true, configurable: true, writable: true });
      }
      return value;
    }
  }
}

/** A raw answer as the helpers' Answer (parsed problem body), for expectProblem. */
function asAnswer(res: RawAnswer): Answer {
  const headers = new Headers(res.headers);
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.status, headers, body };
}

/** One webhook under test: how to address it and what its credential looks like for a given body. */
interface Target {
  mode: 'token' | 'url_token' | 'signature';
  wh: { uid: string; factory_uid: string; secret: string };
  /** The URL that carries the credential (url_token: with the token segment). */
  url: string;
  /** Headers that authenticate `body` and give it a fresh identity. */
  credential(body: Buffer): Record<string, string>;
  /** Headers (or for url_token: a URL) that fail authentication. */
  wrong: { url: string; headers: Record<string, string> };
}

function signStandardWebhooks(secret: string, id: string, timestamp: number, body: Buffer): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

describe.each(testDatabases())('webhook ingress under generated hostile input (%s)', (kind) => {
  let server: TestServer;
  let api: RestClient;
  const targets = {} as Record<Target['mode'], Target>;
  const all = () => Object.values(targets);
  /** Every status the ingress answered in this suite: none may be a 5xx. */
  const statuses: number[] = [];
  const observe = <T extends { status: number }>(res: T): T => {
    statuses.push(res.status);
    return res;
  };

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      engine: false,
      env: {
        // The limits are tested elsewhere (pipeline.test.ts); here they must not hide an answer.
        INGRESS_DELIVERIES_PER_MINUTE: '100000',
        INGRESS_AUTH_FAILURES_PER_MINUTE: '100000',
        HTTP_HEADERS_TIMEOUT_SECONDS: '1',
        HTTP_REQUEST_TIMEOUT_SECONDS: '2',
      },
    });
    api = restClient(server, server.adminKey);
    const make = async (mode: Target['mode'], body: Record<string, unknown>) => {
      const factory = await api.createFactory(`hostile-${mode}`);
      const wh = await api.createWebhook(factory, { name: `hostile-${mode}`, ...body });
      // An automation with a payload filter, so every accepted body is also matched against a filter.
      const automation = await api.post(`/factories/${factory}/automations`, {
        name: `on-${mode}`,
        prompt: 'Handle it.',
        triggers: [trigger([wh.uid], { action: ['opened'] })],
      });
      expect(automation.status, JSON.stringify(automation.body)).toBe(201);
      return wh as Target['wh'] & { ingress_url: string };
    };
    const token = await make('token', {});
    targets.token = {
      mode: 'token',
      wh: token,
      url: token.ingress_url,
      credential: () => ({ authorization: `Bearer ${token.secret}`, 'x-service-delivery-id': randomUUID() }),
      wrong: { url: token.ingress_url, headers: { authorization: `Bearer ${token.secret}x` } },
    };
    const urlToken = await make('url_token', { auth_mode: 'url_token' });
    const base = urlToken.ingress_url.slice(0, urlToken.ingress_url.lastIndexOf('/'));
    targets.url_token = {
      mode: 'url_token',
      wh: urlToken,
      url: `${base}/${urlToken.secret}`,
      credential: () => ({ 'x-service-delivery-id': randomUUID() }),
      wrong: { url: `${base}/not-${urlToken.secret}`, headers: {} },
    };
    const signed = await make('signature', { auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
    targets.signature = {
      mode: 'signature',
      wh: signed,
      url: signed.ingress_url,
      credential: (body) => {
        const id = `msg_${randomUUID()}`;
        const timestamp = Math.floor(Date.now() / 1000);
        return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signStandardWebhooks(signed.secret, id, timestamp, body) };
      },
      wrong: {
        url: signed.ingress_url,
        headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      },
    };
  });
  afterAll(async () => {
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    await server?.close();
  });

  /** The whole delivery log of a webhook, oldest first. */
  async function log(target: Target): Promise<any[]> {
    const entries: any[] = [];
    let cursor = '';
    for (;;) {
      const res = await api.get(`/factories/${target.wh.factory_uid}/webhooks/${target.wh.uid}/deliveries?limit=500${cursor}`);
      expect(res.status).toBe(200);
      entries.push(...res.body.deliveries);
      if (!res.body.page_info.has_next_page) return entries.reverse();
      cursor = `&cursor=${encodeURIComponent(res.body.page_info.next_cursor)}`;
    }
  }
  /** The labels logged since `before` entries (oldest first). */
  const labelsSince = async (target: Target, before: number) => (await log(target)).slice(before).map((d) => d.label as string);

  /** Sends an authenticated body and checks the answer against the oracle: 202 Accepted, or 400 Rejected (invalid JSON). */
  async function deliver(target: Target, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
    const res = observe(await send(target.url, body, { headers: { ...target.credential(body), ...headers } }));
    if (isValidJson(body)) expect(res.status, `${target.mode}: ${body.toString('hex').slice(0, 80)}`).toBe(202);
    else expectProblem(res, 400, 'invalid_request');
    return res;
  }
  const expectedLabel = (body: Buffer) => (isValidJson(body) ? 'Accepted' : 'Rejected (invalid JSON)');

  it('a svix-signed body is accepted (the test signer is the library’s)', async () => {
    const { wh, url } = targets.signature;
    const body = '{"action":"ping"}';
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    const res = observe(
      await send(url, body, {
        headers: {
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new SvixWebhook(wh.secret).sign(id, at, body),
        },
      }),
    );
    expect(res.status).toBe(202);
    expect(signStandardWebhooks(wh.secret, id, Math.floor(at.getTime() / 1000), Buffer.from(body))).toBe(new SvixWebhook(wh.secret).sign(id, at, body));
  });

  it('seeded random bytes and random JSON: 202 Accepted or 400 Rejected (invalid JSON), as the body is', async () => {
    const next = prng(0x5eed);
    const cases: Buffer[] = [];
    for (let i = 0; i < 120; i++) {
      const bytes = Buffer.alloc(Math.floor(next() * 600));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(next() * 256);
      cases.push(bytes);
    }
    for (let i = 0; i < 120; i++) {
      const json = Buffer.from(JSON.stringify(randomJson(next)) ?? 'null');
      cases.push(json);
      // The same text with one byte flipped: mostly invalid, sometimes still JSON.
      const flipped = Buffer.from(json);
      flipped[Math.floor(next() * flipped.length)] = Math.floor(next() * 256);
      cases.push(flipped);
    }
    for (const target of all()) {
      const before = (await log(target)).length;
      for (const body of cases) await deliver(target, body);
      expect(await labelsSince(target, before)).toEqual(cases.map(expectedLabel));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);

  it('invalid UTF-8 is not JSON: 400 Rejected (invalid JSON); a UTF-8 BOM is tolerated', async () => {
    const invalid = [
      Buffer.from([0x22, 0xff, 0x22]), // "\xff"
      Buffer.from([0x22, 0xc0, 0xaf, 0x22]), // overlong "/"
      Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), // an encoded surrogate
      Buffer.from([0x22, 0xe2, 0x82, 0x22]), // truncated sequence
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x22, 0x7d]), // {"a":"<5-byte form>"}
      Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]), // UTF-16 BE with its BOM
    ];
    const valid = [Buffer.from('\ufeff{"bom":true}'), Buffer.from('"\\ud800 lone surrogate, escaped"'), Buffer.from('"é ✓ 😀"')];
    for (const target of all()) {
      const before = (await log(target)).length;
      for (const body of [...invalid, ...valid]) await deliver(target, body);
      expect(await labelsSince(target, before)).toEqual([...Array(invalid.length).fill('Rejected (invalid JSON)'), ...Array(valid.length).fill('Accepted')]);
    }
  });

  it('deep nesting, huge numbers, duplicate and __proto__ keys, empty bodies, other content types', async () => {
    const deepOpen = Buffer.from('['.repeat(100_000));
    const deepBalanced = Buffer.from('['.repeat(100_000) + ']'.repeat(100_000));
    const deepObjects = Buffer.from('{"a":'.repeat(40_000) + '1' + '}'.repeat(40_000));
    const digits300 = '9'.repeat(300);
    const cases: Array<{ body: Buffer; type?: string }> = [
      { body: deepOpen },
      { body: deepBalanced },
      { body: deepObjects },
      { body: Buffer.from('1e400') },
      { body: Buffer.from(`{"n":-1e400,"m":1e-400,"big":${digits300},"neg":-${digits300}.${digits300}e-999}`) },
      { body: Buffer.from('{"a":1,"a":2,"a":{"a":3}}') },
      { body: Buffer.from('{"__proto__":{"polluted":true,"action":"opened"},"constructor":{"prototype":{"polluted":true}}}') },
      { body: Buffer.from('') },
      { body: Buffer.from('   \r\n\t ') },
      { body: Buffer.from('a=1&b=2'), type: 'application/x-www-form-urlencoded' },
      { body: Buffer.from('<xml/>'), type: 'application/xml' },
      { body: Buffer.from('{"action":"opened"}'), type: 'text/plain; charset=latin1' },
      { body: Buffer.from('{"action":"opened"}'), type: 'multipart/form-data; boundary=x' },
    ];
    for (const target of all()) {
      const before = (await log(target)).length;
      const answers: Answer[] = [];
      for (const { body, type } of cases) answers.push(await deliver(target, body, type ? { 'content-type': type } : {}));
      expect(await labelsSince(target, before)).toEqual(cases.map(({ body }) => expectedLabel(body)));

      // What was accepted reads back through the REST API (deep payloads as their stored text).
      for (const [i, res] of answers.entries()) {
        if (res.status !== 202) continue;
        const entry = await api.get(`/factories/${target.wh.factory_uid}/webhooks/${target.wh.uid}/deliveries/${res.body.delivery_id}`);
        expect(entry.status, `case ${i}`).toBe(200);
        expect(entry.body.label).toBe('Accepted');
      }
      const proto = answers[6]!.body.delivery_id as string;
      const stored = await api.get(`/factories/${target.wh.factory_uid}/webhooks/${target.wh.uid}/deliveries/${proto}`);
      expect(Object.keys(stored.body.payload)).toEqual(['__proto__', 'constructor']);
      // `__proto__.action` is not the payload's `action`: the filter { action: ['opened'] } does not match it,
      // while the plain `{"action":"opened"}` bodies (text/plain, multipart) each started a run.
      const runsOf = async (deliveryId: string) => (await api.get(`/agent/runs?delivery_id=${deliveryId}`)).body.runs as unknown[];
      expect(await runsOf(proto)).toHaveLength(0);
      expect(await runsOf(answers[11]!.body.delivery_id)).toHaveLength(1);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 60_000);

  it('wrong or missing credentials per mode: 401 Rejected (auth)', async () => {
    for (const target of all()) {
      const before = (await log(target)).length;
      const body = Buffer.from('{"action":"opened"}');
      const secret = target.wh.secret;
      const bare = target.mode === 'url_token' ? target.url.slice(0, target.url.lastIndexOf('/')) : target.url;
      const attempts: Array<{ url: string; headers: Record<string, string> }> = [
        target.wrong,
        { url: bare, headers: {} },
        // The right secret in the wrong place: as a path token (token), as a bearer token (url_token), as a
        // signature over another body (signature).
        {
          token: { url: `${bare}/${secret}`, headers: { authorization: `Bearer ${secret}` } },
          url_token: { url: bare, headers: { authorization: `Bearer ${secret}` } },
          signature: { url: bare, headers: target.credential(Buffer.from('{"action":"closed"}')) },
        }[target.mode],
      ];
      for (const { url, headers } of attempts) expectProblem(observe(await send(url, body, { headers })), 401, 'authentication_required');
      expect(await labelsSince(target, before)).toEqual(Array(attempts.length).fill('Rejected (auth)'));
    }
  });

  it('bodies over 256 KB: 413 Rejected (too large) — declared and refused before reading, or chunked and stopped late', async () => {
    const big = Buffer.alloc(4 * MAX, 0x20);
    for (const target of all()) {
      const before = (await log(target)).length;
      const declared = observe(await send(target.url, big, { headers: target.credential(big) }));
      expectProblem(declared, 413, 'payload_too_large');
      expect(declared.headers.get('connection')).toBe('close');
      // Chunked, in small pieces: the cap is passed late, after many chunks.
      const chunked = observe(await send(target.url, big, { headers: target.credential(big), chunked: 4_096 }));
      expectProblem(chunked, 413, 'payload_too_large');
      const entries = (await log(target)).slice(before);
      expect(entries.map((d) => d.label)).toEqual(['Rejected (too large)', 'Rejected (too large)']);
      expect(entries[0].size).toBe(4 * MAX);
      // Reading stopped at the chunk that crossed the cap: nothing past it was read, let alone buffered.
      expect(entries[1].size).toBeGreaterThan(MAX);
      expect(entries[1].size).toBeLessThanOrEqual(MAX + 64 * 1024);
    }
  });

  it(`a burst of 200 oversized requests leaves RSS within +${RSS_BOUND_BYTES / 1024 / 1024} MB, and the ingress answers after it`, async () => {
    const target = targets.token;
    const auth = { authorization: `Bearer ${target.wh.secret}` };
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const { hostname, port, pathname } = new URL(target.url);
    const bodyBytes = 8 * 1024 * 1024;
    /**
     * An 8 MB body, declared or chunked, written as fast as the server reads it: a server that read and
     * buffered it before answering would hold 20 × 8 MB at once.
     */
    const oversized = (chunked: boolean) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({
          host: hostname,
          port,
          path: pathname,
          method: 'POST',
          agent: false,
          headers: { ...auth, ...(chunked ? {} : { 'content-length': String(bodyBytes) }) },
        });
        let written = 0;
        const pump = () => {
          while (!req.destroyed) {
            if (written >= bodyBytes) return void req.end();
            written += piece.length;
            if (!req.write(piece)) return void req.once('drain', pump);
          }
        };
        req.on('response', (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        // A reset while still writing: the answer was lost (status 0), as it is when the server closes at once.
        req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? resolve(0) : reject(err)));
        pump();
      });
    const burst = async () => {
      const answered: number[] = [];
      for (let round = 0; round < 10; round++) answered.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => oversized(i % 2 === 0)))));
      return answered;
    };
    // Warm-up: the code paths compiled, the pools filled. Not a burst: RSS would then already hold the heap
    // a server that buffered bodies needs, and the measured burst could reuse it unseen.
    for (let i = 0; i < 20; i++) await deliver(target, Buffer.from(`{"warm":${i}}`));
    expect([await oversized(false), await oversized(true)]).toEqual([413, 413]);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().rss;
    // Sampled during the burst too: a server that buffered the bodies for a while would show here.
    let peak = before;
    const sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const answered = await burst().finally(() => clearInterval(sampling));
    gc?.();
    const after = process.memoryUsage().rss;
    statuses.push(...answered);
    expect(answered).toEqual(Array(200).fill(413));
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    console.log(`ingress burst (${kind.dialect}): RSS ${mb(before)} MB → peak ${mb(peak)} MB → ${mb(after)} MB (bound +${mb(RSS_BOUND_BYTES)} MB)`);
    expect(Math.max(peak, after) - before).toBeLessThan(RSS_BOUND_BYTES);
    await deliver(target, Buffer.from('{"after":"burst"}'));
  }, 120_000);

  it('slow bodies and slow headers: 408 after HTTP_REQUEST_TIMEOUT_SECONDS / HTTP_HEADERS_TIMEOUT_SECONDS, nothing logged', async () => {
    const slow = all().map(async (target) => {
      const before = (await log(target)).length;
      const { pathname } = new URL(target.url);
      const headers = Object.entries(target.credential(Buffer.from('{}')))
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      const body = await raw(target.url, `POST ${pathname} HTTP/1.1\r\nHost: test\r\n${headers}Content-Length: 1000\r\n\r\n{"a":"`, { drip: 'x' });
      const head = await raw(target.url, `POST ${pathname} HTTP/1.1\r\nHost: test\r\n`, { drip: 'X-Slow: 1\r\n' });
      expect(await labelsSince(target, before)).toEqual([]);
      return { body, head };
    });
    for (const { body, head } of await Promise.all(slow)) {
      observe(body);
      observe(head);
      expectProblem(asAnswer(body), 408, 'request_timeout');
      expect(body.ms).toBeGreaterThanOrEqual(1_900);
      expect(body.ms).toBeLessThan(4_500); // 2 s, plus up to 1 s until node:http checks
      expectProblem(asAnswer(head), 408, 'request_timeout');
      expect(head.ms).toBeLessThan(3_500);
    }
    // A wrong token is answered at once, whatever the body does (token modes check it before reading).
    const { pathname } = new URL(targets.token.url);
    const early = observe(
      await raw(targets.token.url, `POST ${pathname} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer nope\r\nContent-Length: 1000\r\n\r\n{`, { drip: 'x' }),
    );
    expect(early.status).toBe(401);
    expect(early.ms).toBeLessThan(1_500);
  }, 30_000);

  it('duplicate, oversized and many headers; injection attempts in header values', async () => {
    const body = Buffer.from('{"headers":"hostile"}');
    for (const target of all()) {
      const before = (await log(target)).length;
      const { pathname } = new URL(target.url);
      const headerLines = (headers: Record<string, string>) =>
        Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
      const request = (extra: string) =>
        raw(
          target.url,
          Buffer.concat([
            Buffer.from(
              `POST ${pathname} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${headerLines(target.credential(body))}${extra}Content-Length: ${body.length}\r\n\r\n`,
              'latin1',
            ),
            body,
          ]),
        );
      const expected: string[] = [];

      // Two delivery-ID headers: one identity, their list (a deterministic, logged delivery).
      const twoIds = observe(await request('X-Service-Delivery-Id: first\r\nX-Service-Delivery-Id: second\r\n'));
      expect(twoIds.status).toBe(202);
      expected.push('Accepted');
      // Many headers (1,000 small ones, under the 16 KB header limit).
      const many = observe(await request(Array.from({ length: 1_000 }, (_, i) => `X-${i}: ${i % 10}\r\n`).join('')));
      expect(many.status).toBe(202);
      expected.push('Accepted');
      // An unsafe x-request-id is not echoed; a value with obs-text bytes is just bytes.
      const unsafeId = observe(await request(`X-Request-Id: <script>\r\nX-Service-Delivery-Id: caf\xe9-${randomUUID()}\r\n`));
      expect(unsafeId.status).toBe(202);
      expect(unsafeId.headers['x-request-id']).toMatch(/^req_/);
      expected.push('Accepted');

      // A 64 KB header, a bare CR / LF / NUL inside a value, two Content-Lengths, Content-Length with
      // chunked: malformed HTTP, refused by the parser before the ingress sees it (431 / 400 problems), never logged.
      const huge = observe(await request(`X-Huge: ${'h'.repeat(64 * 1024)}\r\n`));
      expectProblem(asAnswer(huge), 431, 'request_header_fields_too_large');
      for (const injected of [
        `X-Service-Delivery-Id: a\rInjected: 1\r\n`,
        `X-Service-Delivery-Id: a\nInjected: 1\r\n`,
        `X-Service-Delivery-Id: a\x00b\r\n`,
        'Content-Length: 5\r\n',
        'Transfer-Encoding: chunked\r\n',
      ]) {
        const res = observe(await request(injected));
        expectProblem(asAnswer(res), 400, 'invalid_request');
      }
      expect(await labelsSince(target, before)).toEqual(expected);
      const logged = (await log(target)).slice(before);
      expect(logged[0].identity).toEqual(target.mode === 'signature' ? expect.stringMatching(/^msg_/) : expect.stringMatching(/, first, second$/));
    }

    // Two Authorization headers: the first one counts (node:http discards the repeats).
    const token = targets.token;
    const { pathname } = new URL(token.url);
    const twoAuth = (first: string, second: string) =>
      raw(
        token.url,
        `POST ${pathname} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nAuthorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\nX-Service-Delivery-Id: ${randomUUID()}\r\nContent-Length: 2\r\n\r\n{}`,
      );
    expect(observe(await twoAuth('wrong', token.wh.secret)).status).toBe(401);
    expect(observe(await twoAuth(token.wh.secret, 'wrong')).status).toBe(202);
  }, 30_000);

  it('every method but POST: 405 with Allow: POST, not logged; a method HTTP does not know: a 400 problem', async () => {
    for (const target of all()) {
      const before = (await log(target)).length;
      const { pathname } = new URL(target.url);
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'PURGE']) {
        const res = observe(await raw(target.url, `${method} ${pathname} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`));
        expect(res.status, method).toBe(405);
        expect(res.headers.allow, method).toBe('POST');
        if (method === 'HEAD') expect(res.body).toBe('');
        else expectProblem(asAnswer(res), 405, 'method_not_allowed');
      }
      const madeUp = observe(await raw(target.url, `FROBNICATE ${pathname} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`));
      expectProblem(asAnswer(madeUp), 400, 'invalid_request');
      expect(await labelsSince(target, before)).toEqual([]);
    }
  });

  it('unknown webhooks and hostile paths: 404, never logged', async () => {
    for (const path of [
      '/webhooks/w/wh_%00',
      '/webhooks/w/..%2F..%2Fapi',
      `/webhooks/w/${'a'.repeat(5000)}`,
      '/webhooks/w/wh_x/%ZZ',
      '/webhooks/w/wh_x?x=' + 'q'.repeat(4000),
    ]) {
      const res = observe(await send(`${server.ingressUrl}${path}`, '{}', { headers: { authorization: 'Bearer x' } }));
      expectProblem(res, 404, 'resource_not_found');
      expect(res.body.instance.length).toBeLessThanOrEqual(260);
    }
  });
});
