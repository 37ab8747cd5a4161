/**
 * Standard Webhooks signatures of outbound notifications, made with the reference library
 * (`standardwebhooks`, the one receivers verify with): `webhook-signature` holds one `v1,<base64>` entry per
 * secret that signs — the current one, plus the previous one during a rotation's overlap.
 */
import { Webhook } from 'standardwebhooks';
import { generateSignatureSecret } from '../webhooks/secrets';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes (as a Standard Webhooks webhook's). */
export const generateNotificationSecret = (): string => generateSignatureSecret('standard-webhooks');

/** The three Standard Webhooks headers of `payload` sent as event `eventId` at `at`, signed with each of `secrets`. */
export function signNotification(eventId: string, payload: string, at: Date, secrets: readonly string[]): SignedHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(' '),
  };
}
