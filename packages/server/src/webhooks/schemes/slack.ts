import { randomBytes } from 'node:crypto';
import { hmacSha256, timingSafeEqualString } from './compare';
import { fail, freshTimestamp, ok, readHeader, signatureHeader, type SignatureScheme, type VerifyInput, type VerifyResult } from './types';

/**
 * Slack (https://api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Request-Timestamp: <unix seconds>`, `X-Slack-Signature: v0=<hex>` where the hex is
 * HMAC-SHA256(signing secret, `v0:${timestamp}:${rawBody}`).
 *
 * Timestamp: Slack's own documentation requires rejecting requests whose timestamp differs from the local
 * clock by more than five minutes (replay protection), so Slack is checked too even though the seed names
 * only Standard Webhooks and "one further" scheme (which we count as Stripe).
 *
 * Slack has no delivery-id header.
 */
const SIGNATURE = 'x-slack-signature';
const TIMESTAMP = 'x-slack-request-timestamp';

function verify({ rawBody, headers, secret, now, toleranceSeconds }: VerifyInput): VerifyResult {
  const signature = signatureHeader(readHeader(headers, SIGNATURE));
  if (!signature.ok) return signature;
  const timestampText = readHeader(headers, TIMESTAMP);
  const fresh = freshTimestamp(timestampText, now, toleranceSeconds);
  if (!fresh.ok) return fresh;
  const sig = signature.value.trim();
  if (!sig.startsWith('v0=')) return fail('malformed signature header');
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');

  // Slack signs the header text as sent (freshTimestamp saw it present), not the parsed number.
  const expected = 'v0=' + hmacSha256(secret, `v0:${timestampText!.trim()}:`, rawBody).toString('hex');
  return timingSafeEqualString(sig.toLowerCase(), expected) ? ok : fail('no signature matched');
}

export const slackScheme: SignatureScheme = {
  name: 'slack',
  verify,
  deliveryIdHeaders: [],
  hasSignature: (headers) => readHeader(headers, SIGNATURE) !== undefined,
  credentialHeaders: [SIGNATURE],
  dedupOnSignedBody: true,
  // Slack issues hex signing secrets; Slack normally issues the real one.
  generateSecret: () => randomBytes(32).toString('hex'),
};
