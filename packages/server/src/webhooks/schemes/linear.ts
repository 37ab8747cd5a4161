import { randomBytes } from 'node:crypto';
import { bodyHmacScheme } from './body-hmac';
import { checkTimestamp, fail, type SignatureScheme, type VerifyInput, type VerifyResult } from './types';

/** Linear's documented replay window: a delivery whose `webhookTimestamp` is further from now is refused. */
export const LINEAR_TOLERANCE_SECONDS = 60;

const signedBody = bodyHmacScheme({
  name: 'linear',
  header: 'linear-signature',
  encoding: 'hex',
  digestPattern: /^[0-9a-fA-F]+$/,
  deliveryIdHeaders: ['linear-delivery'],
  // Linear issues the real signing secret; this is only a stand-in of equal strength.
  generateSecret: () => randomBytes(32).toString('hex'),
});

/**
 * Linear (https://linear.app/developers/webhooks#securing-webhooks): `Linear-Signature: <hex>`,
 * HMAC-SHA256 of the raw body with the webhook signing secret (UTF-8); the body's top-level
 * `webhookTimestamp` (Unix milliseconds) must be within a minute of now, so a captured delivery cannot be
 * replayed later. The timestamp is read only from a body whose signature matched (SIGNATURE_TOLERANCE_SECONDS
 * applies when it is shorter).
 */
export const linearScheme: SignatureScheme = {
  ...signedBody,
  verify(input: VerifyInput): VerifyResult {
    const signed = signedBody.verify(input);
    if (!signed.ok) return signed;
    const timestampMs = webhookTimestampOf(input.rawBody);
    if (timestampMs === undefined) return fail('missing timestamp');
    if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) return fail('invalid timestamp');
    return checkTimestamp(Math.floor(timestampMs / 1000), input.now, Math.min(input.toleranceSeconds, LINEAR_TOLERANCE_SECONDS));
  },
};

/** The top-level `webhookTimestamp` of a JSON object body; undefined when there is none (or no JSON object). */
function webhookTimestampOf(rawBody: Buffer): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)['webhookTimestamp'];
  return value === undefined ? undefined : typeof value === 'number' ? value : Number.NaN;
}
