/**
 * The failed-attempt budget cannot lock a real sender out, over real HTTP on SQLite and PostgreSQL: only
 * failed attempts count against (webhook, sender address), a delivery that authenticates is never refused by
 * it, and behind TRUST_PROXY the sender is the right-most address of X-Forwarded-For that is not a trusted
 * proxy — while a peer that is not trusted cannot move its attempts elsewhere with that header.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { expectProblem, restClient, send, type RestClient, type SendOptions } from '../webhooks/helpers';

const MAX = 262_144;
const BUDGET = 10;
const githubSignature = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const WRONG = { authorization: 'Bearer wrong' };

describe.each(testDatabases())('failed-attempt budget (%s)', (kind) => {
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let direct: TestServer;
  let proxied: TestServer;
  let counter = 0;

  beforeAll(async () => {
    direct = await startTestServer({ database: kind, clock, engine: false });
    // 127.0.0.1 is the load balancer; 10.0.0.0/8 the proxies behind it. 127.0.0.2 is a sender reaching the
    // listener directly.
    proxied = await startTestServer({ database: kind, clock, engine: false, env: { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  async function tokenWebhook(server: TestServer) {
    const api: RestClient = restClient(server, server.adminKey);
    const factory = await api.createFactory(`budget-${++counter}`);
    const wh = await api.createWebhook(factory, { name: `token-${counter}` });
    const labels = async () => (await api.deliveries(factory, wh.uid, '?limit=500')).map((d) => d.label as string);
    return { url: wh.ingress_url as string, auth: { authorization: `Bearer ${wh.secret as string}` }, labels };
  }
  /** Spends the whole budget of the sender `options` names: BUDGET answers of 401. */
  async function spendBudget(url: string, options: SendOptions | ((i: number) => SendOptions)) {
    for (let i = 0; i < BUDGET; i++) {
      const sent = typeof options === 'function' ? options(i) : options;
      expectProblem(await send(url, `{"bad":${i}}`, sent), 401, 'authentication_required');
    }
  }

  it('token: ten bad tokens from an address, then the right token from it → Accepted; the eleventh bad one → 429', async () => {
    const { url, auth, labels } = await tokenWebhook(direct);
    await spendBudget(url, { headers: WRONG });
    expect((await send(url, '{"right":1}', { headers: auth })).status).toBe(202);
    const spent = await send(url, '{"bad":11}', { headers: WRONG });
    expectProblem(spent, 429, 'rate_limited');
    expect(spent.body.detail).toMatch(/failed authentication/);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Still spent for failures, still open for the sender: an oversized unauthenticated body is refused too.
    expectProblem(await send(url, Buffer.alloc(MAX + 1, 0x20), { headers: WRONG }), 429, 'rate_limited');
    expect((await send(url, '{"right":2}', { headers: auth })).status).toBe(202);
    expect(await labels()).toEqual(['Accepted', 'Accepted', ...Array(BUDGET).fill('Rejected (auth)')]);
  });

  it('url_token: a spent budget does not refuse the right path token', async () => {
    const api = restClient(direct, direct.adminKey);
    const factory = await api.createFactory(`budget-${++counter}`);
    const wh = await api.createWebhook(factory, { name: `url-${counter}`, auth_mode: 'url_token' });
    const base = (wh.ingress_url as string).slice(0, (wh.ingress_url as string).lastIndexOf('/'));
    for (let i = 0; i < BUDGET; i++) expect((await send(`${base}/wrong-${i}`, '{}')).status).toBe(401);
    expectProblem(await send(`${base}/wrong`, '{}'), 429, 'rate_limited');
    expect((await send(wh.ingress_url, '{"right":1}')).status).toBe(202);
  });

  it('signature: ten bad signatures, then a correctly signed delivery → Accepted; bad and oversized ones → 429', async () => {
    const api = restClient(direct, direct.adminKey);
    const secret = `gh-${++counter}`;
    const factory = await api.createFactory(`budget-${counter}`);
    const wh = await api.createWebhook(factory, { name: `sig-${counter}`, auth_mode: 'signature', signature_scheme: 'github', provider_secret: secret });
    await spendBudget(wh.ingress_url, { headers: { 'x-hub-signature-256': 'sha256=00' } });
    const body = '{"action":"opened"}';
    expect((await send(wh.ingress_url, body, { headers: { 'x-hub-signature-256': githubSignature(secret, body) } })).status).toBe(202);
    expectProblem(await send(wh.ingress_url, '{}', { headers: { 'x-hub-signature-256': 'sha256=00' } }), 429, 'rate_limited');
    const big = Buffer.alloc(MAX + 1, 0x20);
    expectProblem(await send(wh.ingress_url, big, { headers: { 'x-hub-signature-256': githubSignature(secret, big) } }), 429, 'rate_limited');
  });

  it('without TRUST_PROXY, X-Forwarded-For names nobody: fresh values per attempt do not escape the budget', async () => {
    const { url } = await tokenWebhook(direct);
    await spendBudget(url, (i) => ({ headers: { ...WRONG, 'x-forwarded-for': `203.0.113.${i}` } }));
    expectProblem(await send(url, '{}', { headers: { ...WRONG, 'x-forwarded-for': '198.51.100.1' } }), 429, 'rate_limited');
  });

  it('behind TRUST_PROXY the budget is per forwarded address: one client spending its budget leaves another untouched', async () => {
    const { url, auth } = await tokenWebhook(proxied);
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    await spendBudget(url, { headers: { ...WRONG, ...attacker } });
    expectProblem(await send(url, '{}', { headers: { ...WRONG, ...attacker } }), 429, 'rate_limited');
    // Another client behind the same load balancer still has its own budget.
    expectProblem(await send(url, '{}', { headers: { ...WRONG, 'x-forwarded-for': '203.0.113.8' } }), 401, 'authentication_required');
    // Behind a proxy chain too: the right-most address that is not a trusted proxy is the sender.
    expectProblem(await send(url, '{}', { headers: { ...WRONG, 'x-forwarded-for': '203.0.113.7, 10.1.2.3' } }), 429, 'rate_limited');
    expect((await send(url, '{"real":1}', { headers: { ...auth, ...attacker } })).status).toBe(202);
  });

  it('behind TRUST_PROXY, addresses a client writes left of the one its proxy appended do not escape the budget', async () => {
    const { url } = await tokenWebhook(proxied);
    await spendBudget(url, (i) => ({ headers: { ...WRONG, 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9, 10.1.2.3` } }));
    expectProblem(await send(url, '{}', { headers: { ...WRONG, 'x-forwarded-for': '198.51.100.99, 203.0.113.9' } }), 429, 'rate_limited');
  });

  it('a spoofed X-Forwarded-For from a peer that is not a trusted proxy is ignored: the peer is the sender', async () => {
    const { url } = await tokenWebhook(proxied);
    const untrusted = { localAddress: '127.0.0.2' };
    await spendBudget(url, (i) => ({ ...untrusted, headers: { ...WRONG, 'x-forwarded-for': `203.0.113.${100 + i}` } }));
    expectProblem(await send(url, '{}', { ...untrusted, headers: { ...WRONG, 'x-forwarded-for': '203.0.113.200' } }), 429, 'rate_limited');
    // The spoofed addresses were never charged: a client the trusted proxy forwards as one of them is not refused.
    expectProblem(await send(url, '{}', { headers: { ...WRONG, 'x-forwarded-for': '203.0.113.100' } }), 401, 'authentication_required');
  });
});
