import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

import { signWebhook } from '../../src/lib/webhooks';

const secret = 'whsec_' + btoa('a-32-byte-secret-for-the-tests!!');

describe('signWebhook', () => {
  it('produces headers the standardwebhooks verifier accepts', async () => {
    const payload = JSON.stringify({ action: 'opened', number: 7, title: 'héllo' });
    const headers = await signWebhook({ secret, payload });
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(payload, { ...headers })).toEqual(JSON.parse(payload));
  });

  it('uses the given id and timestamp (Date or seconds) and signs bytes too', async () => {
    const now = new Date();
    const seconds = Math.floor(now.getTime() / 1000);
    const payload = new TextEncoder().encode('{"a":1}');
    const fromDate = await signWebhook({ secret, payload, id: 'msg_fixed', timestamp: now });
    const fromSeconds = await signWebhook({ secret, payload: '{"a":1}', id: 'msg_fixed', timestamp: seconds });
    expect(fromDate).toEqual(fromSeconds);
    expect(fromDate['webhook-id']).toBe('msg_fixed');
    expect(fromDate['webhook-timestamp']).toBe(String(seconds));
    expect(new Webhook(secret).verify('{"a":1}', { ...fromDate })).toEqual({ a: 1 });
  });

  it('matches the verifier’s own signature for a fixed message', async () => {
    const timestamp = new Date();
    const wh = new Webhook(secret);
    const expected = wh.sign('msg_1', timestamp, '{"x":true}');
    const headers = await signWebhook({ secret, id: 'msg_1', timestamp, payload: '{"x":true}' });
    expect(headers['webhook-signature']).toBe(expected);
  });

  it('accepts a secret without the whsec_ prefix', async () => {
    const headers = await signWebhook({ secret: secret.slice('whsec_'.length), payload: '{}' });
    expect(new Webhook(secret).verify('{}', { ...headers })).toEqual({});
  });

  it('a changed body or another secret fails verification', async () => {
    const headers = await signWebhook({ secret, payload: '{"amount":1}' });
    expect(() => new Webhook(secret).verify('{"amount":2}', { ...headers })).toThrow('No matching signature found');
    const other = 'whsec_' + btoa('another-secret-another-secret-!!');
    expect(() => new Webhook(other).verify('{"amount":1}', { ...headers })).toThrow('No matching signature found');
  });

  it('rejects a secret that is not base64', async () => {
    await expect(signWebhook({ secret: 'whsec_***', payload: '{}' })).rejects.toThrow(/base64/);
  });
});
