/** Words the factory and webhook pages share: names of the contract's enum values and the suggested secret name. */
import type { AuthMode, DefinitionSource, DeliveryLabel, SignatureScheme } from '@agent-runs/sdk';

export const authModeNames: Record<AuthMode, string> = {
  token: 'Bearer token',
  url_token: 'URL token',
  signature: 'Provider signature',
};

export const authModeHints: Record<AuthMode, string> = {
  token: 'The sender sends Authorization: Bearer <secret>.',
  url_token: 'The secret is part of the URL: the URL itself is the credential, treat it as secret.',
  signature: "The sender signs each request under its provider's scheme; the service verifies with the provider's signing secret.",
};

export const definitionSourceNames: Record<DefinitionSource, string> = {
  api: 'Managed (changed through the API)',
  files: 'Files (definitions applied from a repository)',
};

/** `standard-webhooks` is the only scheme whose secret the service can generate (contract: createWebhook). */
export const schemeGeneratesSecret = (scheme: SignatureScheme | null): boolean => scheme === 'standard-webhooks';

/**
 * The name the service gives the webhook's team secret when none is entered (contract: createWebhook):
 * `GitHub issues` → `WEBHOOK_GITHUB_ISSUES_SECRET`.
 */
export function suggestedSecretName(webhookName: string): string {
  const middle = webhookName
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = `WEBHOOK_${middle ? `${middle}_` : ''}SECRET`;
  return name.length <= 128 ? name : `${name.slice(0, 121)}_SECRET`;
}

/** A delivery label's colour class: accepted, duplicate or rejected. */
export function deliveryLabelClass(label: DeliveryLabel): string {
  if (label === 'Accepted') return 'delivery-accepted';
  if (label === 'Duplicate') return 'delivery-duplicate';
  return 'delivery-rejected';
}
