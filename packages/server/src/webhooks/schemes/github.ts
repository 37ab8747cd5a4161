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
 * GitHub (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries):
 * `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the raw body with the webhook secret (UTF-8).
 * The legacy SHA-1 `X-Hub-Signature` header is not accepted. GitHub signs no timestamp.
 * Delivery id: `X-GitHub-Delivery` (a GUID, stable across GitHub's redeliveries).
 */
const HEADER = 'x-hub-signature-256';

function verify({ rawBody, headers, secret }: VerifyInput): VerifyResult {
  const header = readHeader(headers, HEADER);
  if (header === undefined) return fail('missing signature header');
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('signature header too large');
  const sig = header.trim();
  if (!sig.startsWith('sha256=')) return fail('malformed signature header');
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');
  const expected = 'sha256=' + hmacSha256(secret, rawBody).toString('hex');
  return timingSafeEqualString(sig.toLowerCase(), expected) ? ok : fail('no signature matched');
}

export const githubScheme: SignatureScheme = {
  name: 'github',
  verify,
  deliveryIdHeaders: ['x-github-delivery'],
  hasSignature: (headers) => readHeader(headers, HEADER) !== undefined,
  // GitHub lets the user choose the secret and suggests a long random hex string.
  generateSecret: () => randomBytes(32).toString('hex'),
};
