import { randomBytes } from 'node:crypto';
import { hmacSha256, timingSafeEqualString } from './compare';
import {
  MAX_SIGNATURE_HEADER_LENGTH,
  fail,
  ok,
  readHeader,
  type SignatureScheme,
  type VerifyInput,
  type VerifyResult,
} from './types';

/**
 * Shopify (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook):
 * `X-Shopify-Hmac-Sha256: <base64>`, HMAC-SHA256 of the raw body with the app's client secret (UTF-8).
 * No timestamp is signed. Delivery id: `X-Shopify-Webhook-Id` (the same on Shopify's retries).
 */
const HEADER = 'x-shopify-hmac-sha256';

function verify({ rawBody, headers, secret }: VerifyInput): VerifyResult {
  const header = readHeader(headers, HEADER);
  if (header === undefined) return fail('missing signature header');
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('signature header too large');
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');
  const expected = hmacSha256(secret, rawBody).toString('base64');
  // Compared as canonical base64 text (case matters in base64), in constant time.
  return timingSafeEqualString(header.trim(), expected) ? ok : fail('no signature matched');
}

export const shopifyScheme: SignatureScheme = {
  name: 'shopify',
  verify,
  deliveryIdHeaders: ['x-shopify-webhook-id'],
  hasSignature: (headers) => readHeader(headers, HEADER) !== undefined,
  // Shopify issues hex client secrets; Shopify normally issues the real one.
  generateSecret: () => randomBytes(32).toString('hex'),
};
