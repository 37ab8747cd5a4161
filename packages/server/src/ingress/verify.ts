/**
 * Steps 4 and 6 — verify the sender's credential for the webhook's authentication mode. Every comparison is
 * constant-time; the reason of a failure goes to the delivery log and debug logs, never into the answer.
 *
 * - token:     `Authorization: Bearer <secret>`;
 * - url_token: the last path segment (a url_token webhook addressed without it, or another mode addressed
 *              with one, fails);
 * - signature: the provider scheme's verify() over the raw body bytes. A webhook still waiting for its
 *              provider secret (second step) fails every delivery.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SecretBox } from '../crypto/secret-box';
import {
  isSignatureSchemeName,
  signatureSchemes,
  timingSafeEqualString,
  type IncomingHeaders,
  type RejectionReason,
  type VerifyResult,
} from '../webhooks/schemes';
import type { ResolvedWebhook } from './resolve';

export interface VerifyDeliveryInput {
  webhook: ResolvedWebhook;
  pathToken: string | undefined;
  headers: IncomingHttpHeaders;
  /** The raw body; only signature mode needs it (token modes are checked before it is read). */
  rawBody?: Buffer;
  /** Decrypts the webhook's secret: the server's WebhookSecretCache (webhooks/secret-cache.ts). */
  secrets: Pick<SecretBox, 'decrypt'>;
  now: Date;
  toleranceSeconds: number;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const failed = (reason: RejectionReason): VerifyResult => ({ ok: false, reason });

/** Whether the mode's credential is in a header or the path, so it can be checked before the body is read. */
export const checksCredentialBeforeBody = (authMode: string): boolean => authMode === 'token' || authMode === 'url_token';

export function verifyDelivery(input: VerifyDeliveryInput): VerifyResult {
  const { webhook, pathToken, headers } = input;
  if (webhook.encryptedSecret === null) return failed('secret not configured');
  const expectsPathToken = webhook.authMode === 'url_token';
  if (expectsPathToken !== (pathToken !== undefined)) return failed(expectsPathToken ? 'missing token' : 'unexpected path token');
  const secret = input.secrets.decrypt(webhook.encryptedSecret);

  switch (webhook.authMode) {
    case 'token': {
      const match = BEARER.exec(headers.authorization ?? '');
      if (!match?.[1]) return failed('missing token');
      return timingSafeEqualString(match[1], secret) ? { ok: true } : failed('wrong token');
    }
    case 'url_token':
      return timingSafeEqualString(pathToken ?? '', secret) ? { ok: true } : failed('wrong token');
    case 'signature': {
      if (!isSignatureSchemeName(webhook.signatureScheme)) return failed('unknown signature scheme');
      if (!input.rawBody) return failed('body not read');
      return signatureSchemes[webhook.signatureScheme].verify({
        rawBody: input.rawBody,
        headers: headers as IncomingHeaders,
        secret,
        now: input.now,
        toleranceSeconds: input.toleranceSeconds,
      });
    }
    default:
      return failed('unknown authentication mode');
  }
}
