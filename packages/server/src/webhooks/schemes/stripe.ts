import { randomBytes } from 'node:crypto';
import { hmacSha256, timingSafeEqualAny } from './compare';
import { fail, freshTimestamp, ok, readHeader, signatureHeader, type SignatureScheme, type VerifyInput, type VerifyResult } from './types';

/**
 * Stripe (https://docs.stripe.com/webhooks#verify-manually):
 * `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`; signed payload `${t}.${rawBody}`,
 * HMAC-SHA256 hex, key = the whole endpoint secret string (`whsec_…` used verbatim, not decoded).
 * Any matching `v1` passes (Stripe sends several during its own secret rolls); other schemes ignored.
 *
 * Timestamp: this is the "one further provider scheme" of docs/service-spec.md §Authentication rule 3 / §Limits (5 minutes).
 * Stripe's own library only rejects old timestamps; we also reject ones further than the tolerance in the
 * future, the same symmetric window as Standard Webhooks and Slack, so a pre-dated signature cannot be held
 * back and replayed later.
 *
 * Stripe has no delivery-id header (the event id is in the body, which schemes never parse).
 */
const HEADER = 'stripe-signature';

function verify({ rawBody, headers, secret, now, toleranceSeconds }: VerifyInput): VerifyResult {
  const header = signatureHeader(readHeader(headers, HEADER));
  if (!header.ok) return header;

  let timestampText: string | undefined;
  const candidates: string[] = [];
  for (const item of header.value.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    const k = item.slice(0, eq).trim();
    const v = item.slice(eq + 1).trim();
    if (k === 't') {
      if (timestampText !== undefined) return fail('malformed signature header');
      timestampText = v;
    } else if (k === 'v1') {
      candidates.push(v);
    }
  }
  const fresh = freshTimestamp(timestampText, now, toleranceSeconds);
  if (!fresh.ok) return fresh;
  if (candidates.length === 0) return fail('no v1 signature');
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');

  // Like Stripe's library, the signed payload carries the parsed timestamp as a canonical decimal.
  const expected = hmacSha256(secret, `${fresh.value}.`, rawBody).toString('hex');
  return timingSafeEqualAny(
    candidates.map((c) => c.toLowerCase()),
    expected,
  )
    ? ok
    : fail('no signature matched');
}

export const stripeScheme: SignatureScheme = {
  name: 'stripe',
  verify,
  deliveryIdHeaders: [],
  hasSignature: (headers) => readHeader(headers, HEADER) !== undefined,
  credentialHeaders: [HEADER],
  dedupOnSignedBody: true,
  // Stripe issues `whsec_` secrets (the Stripe CLI's are `whsec_` + 64 hex digits); Stripe normally issues
  // the real one, this is only for a sender that wants us to pick it.
  generateSecret: () => 'whsec_' + randomBytes(32).toString('hex'),
};
