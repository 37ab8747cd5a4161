/**
 * Secrets never reach a log line: the server logs at `trace` into a buffer while webhooks are created,
 * rotated and delivered to in every mode (right and wrong credentials), then the buffer is searched for
 * every secret value the test handled.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, send } from '../webhooks/helpers';

const lines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  const log = createLogger({ logLevel: 'trace' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({ engine: false, log });
});
afterAll(() => server?.close());

it('no secret value appears in the logs', async () => {
  const api = restClient(server, server.adminKey);
  const secrets: string[] = [];
  const factory = await api.createFactory('logged');

  const token = await api.createWebhook(factory, { name: 'token' });
  const url = await api.createWebhook(factory, { name: 'url', auth_mode: 'url_token' });
  const githubSecret = `gh-provider-${randomUUID()}`;
  const github = await api.createWebhook(factory, { name: 'gh', auth_mode: 'signature', signature_scheme: 'github', provider_secret: githubSecret });
  const sw = await api.createWebhook(factory, { name: 'sw', auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
  const teamSecret = `team-secret-${randomUUID()}`;
  await api.put('/secrets/LOGGED_TEAM_SECRET', { value: teamSecret });
  secrets.push(token.secret, url.secret, githubSecret, sw.secret, teamSecret);

  const body = '{"event":"logged"}';
  await send(token.ingress_url, body, { headers: { authorization: `Bearer ${token.secret}` } });
  await send(token.ingress_url, body, { headers: { authorization: `Bearer ${token.secret}x` } });
  await send(url.ingress_url, body);
  await send(`${url.ingress_url}x`, body);
  await send(url.ingress_url, 'not json');
  await send(github.ingress_url, body, {
    headers: { 'x-hub-signature-256': 'sha256=' + createHmac('sha256', githubSecret).update(body).digest('hex'), 'x-github-delivery': randomUUID() },
  });
  const id = `msg_${randomUUID()}`;
  await send(sw.ingress_url, body, {
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': new StandardWebhook(sw.secret).sign(id, new Date(), body),
    },
  });

  const rotatedToken = await api.post(`/factories/${factory}/webhooks/${token.uid}/rotate-secret`, {});
  const rotatedUrl = await api.post(`/factories/${factory}/webhooks/${url.uid}/rotate-secret`, {});
  const newGithubSecret = `gh-provider-${randomUUID()}`;
  await api.post(`/factories/${factory}/webhooks/${github.uid}/rotate-secret`, { provider_secret: newGithubSecret });
  secrets.push(rotatedToken.body.secret, rotatedUrl.body.secret, newGithubSecret);
  await send(rotatedUrl.body.ingress_url, body);
  await send(token.ingress_url, body, { headers: { authorization: `Bearer ${rotatedToken.body.secret}` } });

  const log = lines.join('');
  // The capture works: REST request lines and ingress outcome lines are there.
  expect(log).toContain('"msg":"request"');
  expect(log).toContain('"msg":"webhook delivery"');
  expect(log).toContain('"label":"Rejected (auth)"');
  expect(log).toContain(token.uid);
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(15);
    expect(log).not.toContain(secret);
    // Nor in the forms a logger or URL encoder could give it.
    expect(log).not.toContain(encodeURIComponent(secret));
    expect(log).not.toContain(JSON.stringify(secret).slice(1, -1));
  }
});
