import type { components } from '@agent-runs/contract';
import { standardWebhooksSignature } from './webhooks';

/** The body of every notification (`client.notifications.subscriptions`): `{id, type, timestamp, data}`. */
export type NotificationEvent = components['schemas']['NotificationEvent'];
export type NotificationRunData = components['schemas']['NotificationRunData'];

/** Headers as `fetch` (a `Headers`), Node's `req.headers` or a plain record give them; names in any case. */
export type NotificationHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyNotificationOptions {
  /** How far `webhook-timestamp` may be from now, in seconds. Default 300 (as the Standard Webhooks libraries). */
  toleranceSeconds?: number;
  /** The time to check against: a Date or Unix seconds. Default now. */
  now?: Date | number;
}

/** The notification is not authentic (or not one): answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Checks a notification the service POSTed to your endpoint and answers its parsed event: the Standard
 * Webhooks signature of the raw body under the subscription's `whsec_…` secret (any one `v1` signature
 * of `webhook-signature` may match: two are sent during a secret rotation's overlap), a timestamp within the
 * tolerance, and the body's `id` equal to `webhook-id`. Throws `WebhookVerificationError` otherwise. Uses
 * WebCrypto, so it runs in Node, Deno, Bun, browsers and edge runtimes.
 *
 *     // Express: app.post('/hooks', express.raw({ type: 'application/json' }), async (req, res) => { … })
 *     const event = await verifyNotification(req.body, req.headers, process.env.AGENT_RUNS_NOTIFICATION_SECRET!);
 *     if (event.type === 'run.failed') alert(event.data.run_id, event.data.status_message);
 *     res.sendStatus(204);
 *
 * Pass the body exactly as received (a string or bytes), never a re-serialised object. Deduplicate on
 * `event.id`: delivery is at least once.
 */
export async function verifyNotification(
  payload: string | Uint8Array,
  headers: NotificationHeaders,
  secret: string,
  options: VerifyNotificationOptions = {},
): Promise<NotificationEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  }
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp header.');
  const seconds = Number(timestamp);
  const { now = new Date(), toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = options;
  const nowSeconds = Math.floor((now instanceof Date ? now.getTime() : now * 1000) / 1000);
  if (Math.abs(nowSeconds - seconds) > toleranceSeconds) {
    throw new WebhookVerificationError('The webhook-timestamp is outside the tolerance: replayed or clock skew.');
  }

  const expected = encoder.encode(await standardWebhooksSignature(secret, id, seconds, payload));
  const matched = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => constantTimeEqual(encoder.encode(entry.slice(3)), expected));
  if (!matched) throw new WebhookVerificationError('No signature matched: wrong secret, or the body was changed.');

  let event: NotificationEvent;
  try {
    event = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload)) as NotificationEvent;
  } catch {
    throw new WebhookVerificationError('The body is not JSON.');
  }
  if (event === null || typeof event !== 'object' || event.id !== id) {
    throw new WebhookVerificationError('The body is not the notification its webhook-id names.');
  }
  return event;
}

function header(headers: NotificationHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
