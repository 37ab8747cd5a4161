import { uuid4 } from '../internal/uuid';

export interface SignWebhookParams {
  /** The endpoint's secret: `whsec_` followed by base64 (the prefix is optional). */
  secret: string;
  /** The exact body that will be sent. Sign the string you post, not an object. */
  payload: string | Uint8Array;
  /** Unique message id (`webhook-id`), kept across redeliveries. Default `msg_<uuid>`. */
  id?: string;
  /** Send time: a Date or Unix seconds. Default now. */
  timestamp?: Date | number;
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.payload">`. */
  'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

/**
 * Signs a delivery with the Standard Webhooks scheme, for a sender posting to a `standard-webhooks`
 * webhook (or any Standard Webhooks receiver). Uses WebCrypto, so it runs in Node, Deno, Bun, browsers
 * and edge runtimes.
 *
 *     const body = JSON.stringify(event);
 *     const headers = await signWebhook({ secret, payload: body });
 *     await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export async function signWebhook({ secret, payload, id, timestamp }: SignWebhookParams): Promise<WebhookHeaders> {
  const msgId = id ?? `msg_${uuid4().replace(/-/g, '')}`;
  const seconds = Math.floor(timestamp === undefined ? Date.now() / 1000 : timestamp instanceof Date ? timestamp.getTime() / 1000 : timestamp);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': `v1,${await standardWebhooksSignature(secret, msgId, seconds, payload)}`,
  };
}

/** Base64 HMAC-SHA256 of `<id>.<seconds>.<payload>` under the secret (the `v1` signature, without its prefix). */
export async function standardWebhooksSignature(secret: string, id: string, seconds: number, payload: string | Uint8Array): Promise<string> {
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const prefix = encoder.encode(`${id}.${seconds}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix, 0);
  signed.set(body, prefix.length);

  const key = await globalThis.crypto.subtle.importKey('raw', decodeSecret(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toBase64(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, signed)));
}

function decodeSecret(secret: string): Uint8Array<ArrayBuffer> {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    throw new TypeError('Webhook secret must be `whsec_` followed by base64.');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
