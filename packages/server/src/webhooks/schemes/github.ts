import { randomBytes } from 'node:crypto';
import { bodyHmacScheme } from './body-hmac';

/**
 * GitHub (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries):
 * `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the raw body with the webhook secret (UTF-8).
 * The legacy SHA-1 `X-Hub-Signature` header is not accepted. GitHub signs no timestamp.
 * Delivery id: `X-GitHub-Delivery` (a GUID, stable across GitHub's redeliveries).
 */
export const githubScheme = bodyHmacScheme({
  name: 'github',
  header: 'x-hub-signature-256',
  prefix: 'sha256=',
  encoding: 'hex',
  deliveryIdHeaders: ['x-github-delivery'],
  // GitHub lets the user choose the secret and suggests a long random hex string.
  generateSecret: () => randomBytes(32).toString('hex'),
});
