import { randomBytes } from 'node:crypto';
import { bodyHmacScheme } from './body-hmac';

/**
 * Shopify (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook):
 * `X-Shopify-Hmac-Sha256: <base64>`, HMAC-SHA256 of the raw body with the app's client secret (UTF-8),
 * compared as canonical base64 text (case matters in base64). No timestamp is signed.
 * Delivery id: `X-Shopify-Webhook-Id` (the same on Shopify's retries).
 */
export const shopifyScheme = bodyHmacScheme({
  name: 'shopify',
  header: 'x-shopify-hmac-sha256',
  encoding: 'base64',
  deliveryIdHeaders: ['x-shopify-webhook-id'],
  // Shopify issues hex client secrets; Shopify normally issues the real one.
  generateSecret: () => randomBytes(32).toString('hex'),
});
