/**
 * Step 9 — identify: the identity a delivery is deduplicated by, in the contract's order of preference:
 * (a) the header named by the webhook's `delivery_id_header`; (b) the provider's own delivery header for
 * signature webhooks; (c) `X-Service-Delivery-Id`; (d) `sha256:<hex>` of the raw body.
 * Header values longer than 255 characters are ignored (the next source is used).
 *
 * A scheme whose signature binds the body but not the delivery id (GitHub, Shopify, Linear, and within their
 * timestamp tolerance Stripe and Slack) lets a captured delivery verify again under any delivery-id header,
 * so its deliveries carry a second key, `signedBodyDigest`: the Accepted row remembers it and a delivery
 * matching either key is a Duplicate (record.ts). A sender re-sending an identical body is then a Duplicate
 * too, whatever its delivery id (docs/decisions.md §Replayed signed deliveries and failed-attempt budgets).
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WebhookDeliveriesTable } from '../db/tables';
import { isSignatureSchemeName, signatureSchemes } from '../webhooks/schemes';
import type { ResolvedWebhook } from './resolve';

export type IdentitySource = NonNullable<WebhookDeliveriesTable['identity_source']>;

export interface DeliveryIdentity {
  identity: string;
  source: IdentitySource;
}

export const SERVICE_DELIVERY_ID_HEADER = 'x-service-delivery-id';
const MAX_IDENTITY_LENGTH = 255;

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name.toLowerCase()];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value && value.length <= MAX_IDENTITY_LENGTH ? value : undefined;
}

export function identifyDelivery(webhook: ResolvedWebhook, headers: IncomingHttpHeaders, rawBody: Buffer): DeliveryIdentity {
  if (webhook.deliveryIdHeader) {
    const value = headerValue(headers, webhook.deliveryIdHeader);
    if (value) return { identity: value, source: 'delivery_id_header' };
  }
  if (webhook.authMode === 'signature' && isSignatureSchemeName(webhook.signatureScheme)) {
    for (const name of signatureSchemes[webhook.signatureScheme].deliveryIdHeaders) {
      const value = headerValue(headers, name);
      if (value) return { identity: value, source: 'provider_header' };
    }
  }
  const service = headerValue(headers, SERVICE_DELIVERY_ID_HEADER);
  if (service) return { identity: service, source: 'service_header' };
  return { identity: bodyHash(rawBody), source: 'body_hash' };
}

/** The body's second dedup key when the webhook's scheme signs the body but not the delivery id; else null. */
export function signedBodyDigest(webhook: ResolvedWebhook, rawBody: Buffer): string | null {
  const dedupOnBody =
    webhook.authMode === 'signature' && isSignatureSchemeName(webhook.signatureScheme) && signatureSchemes[webhook.signatureScheme].dedupOnSignedBody;
  return dedupOnBody ? bodyHash(rawBody) : null;
}

const bodyHash = (rawBody: Buffer): string => `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
