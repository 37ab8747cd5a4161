import { randomBytes } from 'node:crypto';
import { hmacSha256, timingSafeEqualAny } from './compare';
import {
  MAX_ID_HEADER_LENGTH,
  fail,
  freshTimestamp,
  ok,
  readHeader,
  signatureHeader,
  type IncomingHeaders,
  type SignatureScheme,
  type VerifyInput,
  type VerifyResult,
} from './types';

/**
 * Standard Webhooks (https://www.standardwebhooks.com/, spec.md "Verifying webhook authenticity"), with
 * the Svix-branded headers accepted the same way (docs/service-spec.md §Authentication).
 *
 * - headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (or `svix-id`, `svix-timestamp`,
 *   `svix-signature`; the unbranded header wins when both are present, field by field, like the libraries);
 * - signed content `${id}.${timestamp}.${rawBody}`, HMAC-SHA256, key = base64-decode of the secret after
 *   stripping `whsec_`;
 * - `webhook-signature` is a space-delimited list of `<version>,<base64>`; any matching `v1` entry
 *   passes, other versions (e.g. `v1a` asymmetric) are ignored;
 * - timestamps older than the tolerance or further than it in the future are rejected.
 */
const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeSecret(secret: string): Buffer | undefined {
  if (typeof secret !== 'string') return undefined;
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (b64.length === 0 || b64.length % 4 === 1 || !BASE64.test(b64)) return undefined;
  const key = Buffer.from(b64, 'base64');
  return key.length === 0 ? undefined : key;
}

const pick = (headers: IncomingHeaders, field: 'id' | 'timestamp' | 'signature'): string | undefined =>
  readHeader(headers, `webhook-${field}`) ?? readHeader(headers, `svix-${field}`);

function verify({ rawBody, headers, secret, now, toleranceSeconds }: VerifyInput): VerifyResult {
  const signatures = signatureHeader(pick(headers, 'signature'));
  if (!signatures.ok) return signatures;
  const id = pick(headers, 'id');
  if (id === undefined) return fail('missing webhook-id header');
  if (id.length > MAX_ID_HEADER_LENGTH) return fail('webhook-id header too large');
  const fresh = freshTimestamp(pick(headers, 'timestamp'), now, toleranceSeconds);
  if (!fresh.ok) return fresh;

  const candidates: string[] = [];
  for (const entry of signatures.value.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0) continue;
    if (entry.slice(0, comma) !== 'v1') continue;
    candidates.push(entry.slice(comma + 1));
  }
  if (candidates.length === 0) return fail('no v1 signature');

  const key = decodeSecret(secret);
  if (key === undefined) return fail('invalid signing secret');
  // Like the reference libraries, the signed content carries the timestamp as a canonical decimal.
  const expected = hmacSha256(key, `${id}.${fresh.value}.`, rawBody).toString('base64');
  return timingSafeEqualAny(candidates, expected) ? ok : fail('no signature matched');
}

export const standardWebhooksScheme: SignatureScheme = {
  name: 'standard-webhooks',
  verify,
  deliveryIdHeaders: ['webhook-id', 'svix-id'],
  hasSignature: (headers) => pick(headers, 'signature') !== undefined,
  credentialHeaders: ['webhook-signature', 'svix-signature'],
  dedupOnSignedBody: false,
  // Standard Webhooks secrets: `whsec_` + base64 of 24–64 random bytes; we use 32.
  generateSecret: () => SECRET_PREFIX + randomBytes(32).toString('base64'),
};
