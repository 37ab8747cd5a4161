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
 * Linear (https://linear.app/developers/webhooks#securing-webhooks):
 * `Linear-Signature: <hex>`, HMAC-SHA256 of the raw body with the webhook signing secret (UTF-8).
 *
 * Timestamp: Linear puts `webhookTimestamp` inside the JSON body, not in a header. Schemes never parse
 * the body, so no age check is made here. The seed applies the 5-minute rule to Standard Webhooks and
 * "one further provider scheme"; we count that one as Stripe (whose timestamp is in the signed header),
 * and additionally check Slack because Slack's own docs require it. Replays of a Linear delivery are
 * caught by delivery-id dedup (`Linear-Delivery`) instead.
 */
const HEADER = 'linear-signature';
const HEX = /^[0-9a-fA-F]+$/;

function verify({ rawBody, headers, secret }: VerifyInput): VerifyResult {
  const header = readHeader(headers, HEADER);
  if (header === undefined) return fail('missing signature header');
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('signature header too large');
  const sig = header.trim();
  if (!HEX.test(sig)) return fail('malformed signature header');
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');
  const expected = hmacSha256(secret, rawBody).toString('hex');
  return timingSafeEqualString(sig.toLowerCase(), expected) ? ok : fail('no signature matched');
}

export const linearScheme: SignatureScheme = {
  name: 'linear',
  verify,
  deliveryIdHeaders: ['linear-delivery'],
  hasSignature: (headers) => readHeader(headers, HEADER) !== undefined,
  // Linear issues the real signing secret; this is only a stand-in of equal strength.
  generateSecret: () => randomBytes(32).toString('hex'),
};
