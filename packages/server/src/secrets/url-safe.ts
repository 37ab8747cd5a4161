/**
 * The one rule a secret value obeys when a `url_token` webhook uses it: it is part of the webhook's URL. The
 * secrets module checks it when a value is set, the webhooks module when a webhook starts using one.
 */

/**
 * True when `s` can sit in a URL path segment as-is: only RFC 3986 unreserved characters
 * (`A–Z a–z 0–9 . _ ~ -`) and at least 16 of them (docs/service-spec.md §Definition apply failures).
 */
export function isUrlSafeSecret(s: unknown): s is string {
  return typeof s === 'string' && s.length >= 16 && /^[A-Za-z0-9._~-]+$/.test(s);
}
