import { randomBytes } from 'node:crypto';
import type { components } from '@agent-runs/contract';
import { signatureSchemes, type SignatureSchemeName } from './schemes';

/**
 * Webhook secret generation (generated secrets are 32+ random bytes; url_token
 * secrets are URL-safe; a Standard Webhooks sender gets a `whsec_` base64 secret when left blank).
 */

export type WebhookAuthMode = components['schemas']['AuthMode'];

/** 32 random bytes as unpadded base64url (43 chars): the secret for `token` and `url_token` modes. */
export function generateTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A fresh signing secret in the provider's usual form (Standard Webhooks: `whsec_` + base64 of 32 bytes). */
export function generateSignatureSecret(scheme: SignatureSchemeName): string {
  return signatureSchemes[scheme].generateSecret();
}

/** The secret the service generates for a new webhook or an empty-body rotation. */
export function generateWebhookSecret(mode: WebhookAuthMode, scheme?: SignatureSchemeName): string {
  if (mode === 'signature') {
    if (scheme === undefined) throw new TypeError('a signature webhook needs a signature scheme');
    return generateSignatureSecret(scheme);
  }
  return generateTokenSecret();
}
