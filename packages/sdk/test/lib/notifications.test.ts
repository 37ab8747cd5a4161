import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

import { verifyNotification, WebhookVerificationError, type NotificationEvent } from '../../src/index';

const secret = 'whsec_' + btoa('a-32-byte-secret-for-the-tests!!');
const previous = 'whsec_' + btoa('the-secret-before-the-rotation!!');
const event: NotificationEvent = {
  id: 'evt_01hzx3k4m5n6p7q8r9s0t1v2w3',
  type: 'run.failed',
  timestamp: '2026-05-01T10:00:00.000Z',
  data: {
    run_id: '3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c',
    title: 'Nightly',
    state: 'FAILED',
    previous_state: 'INPROGRESS',
    status_message: { message: 'tests failed', error_code: 'agent_command_failed' },
    source: 'API',
    factory_uid: null,
    automation_id: null,
    session_link: 'http://localhost:8080/sessions/x',
    sequence: 6,
    created_at: '2026-05-01T09:58:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
  },
};
const body = JSON.stringify(event);
const sentAt = new Date('2026-05-01T10:00:02Z');

/** Headers as the service sends them, signed by the reference library with each of `secrets`. */
function signed(secrets: string[], payload = body, id = event.id, at = sentAt): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' '),
  };
}

describe('verifyNotification', () => {
  it('answers the event of a notification signed under the Standard Webhooks scheme', async () => {
    expect(await verifyNotification(body, signed([secret]), secret, { now: sentAt })).toEqual(event);
    expect(await verifyNotification(new TextEncoder().encode(body), signed([secret]), secret, { now: sentAt })).toEqual(event);
  });

  it('takes a fetch Headers, Node-style header records in any case, and seconds for now', async () => {
    const headers = new Headers(signed([secret]));
    expect((await verifyNotification(body, headers, secret, { now: sentAt.getTime() / 1000 })).id).toBe(event.id);
    const upper = Object.fromEntries(Object.entries(signed([secret])).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect((await verifyNotification(body, upper, secret, { now: sentAt })).id).toBe(event.id);
  });

  it('accepts either signature during a rotation overlap', async () => {
    const both = signed([secret, previous]);
    expect((await verifyNotification(body, both, secret, { now: sentAt })).id).toBe(event.id);
    expect((await verifyNotification(body, both, previous, { now: sentAt })).id).toBe(event.id);
    await expect(verifyNotification(body, signed([secret]), previous, { now: sentAt })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a changed body, another secret, missing headers, a stale timestamp, and a body that is not the event its id names', async () => {
    const refuse = (payload: string, headers: Record<string, string>, options = { now: sentAt as Date | number }) =>
      expect(verifyNotification(payload, headers, secret, options)).rejects.toThrow(WebhookVerificationError);
    await refuse(body.replace('FAILED', 'SUCCEEDED'), signed([secret]));
    await refuse(body, signed(['whsec_' + btoa('another-secret-another-secret-!!')]));
    await refuse(body, { 'webhook-id': event.id, 'webhook-timestamp': '1' });
    await refuse(body, { ...signed([secret]), 'webhook-timestamp': 'soon' });
    await refuse(body, signed([secret]), { now: new Date(sentAt.getTime() + 301_000) });
    await refuse(body, signed([secret]), { now: new Date(sentAt.getTime() - 301_000) });
    expect((await verifyNotification(body, signed([secret]), secret, { now: new Date(sentAt.getTime() + 299_000) })).id).toBe(event.id);
    const other = JSON.stringify({ ...event, id: 'evt_other' });
    await refuse(other, signed([secret], other));
    await refuse('not json', signed([secret], 'not json'));
    await refuse(body, { ...signed([secret]), 'webhook-signature': 'v1a,abc v2,def' });
  });
});
