/**
 * Step 1 — route: which ingress operation a request addresses, from its method and path alone.
 *
 *   POST /webhooks/w/<uid>           receiveWebhookDelivery
 *   POST /webhooks/w/<uid>/<token>   receiveWebhookDeliveryWithToken
 *
 * Any other method on those shapes → 405 (checked before the webhook lookup: docs/wire.md's check order);
 * any other path → 404. The token segment is the credential of a url_token webhook, so it never appears
 * in anything we echo or log: `instance` renders it as `{token}`.
 */
export type IngressRoute =
  | { kind: 'delivery'; webhookId: string; token: string | undefined; instance: string }
  | { kind: 'method_not_allowed'; instance: string }
  | { kind: 'not_found'; instance: string };

const PREFIX = '/webhooks/w/';
/** Webhook uids are `wh_` + base32; this only keeps garbage away from the database. */
const UID = /^[A-Za-z0-9_-]{1,128}$/;
const TOKEN = /^[^/]{1,1024}$/;

export function routeIngressRequest(method: string | undefined, url: string | undefined): IngressRoute {
  const rawPath = url ?? '/';
  const q = rawPath.indexOf('?');
  const path = q < 0 ? rawPath : rawPath.slice(0, q);

  if (!path.startsWith(PREFIX)) return { kind: 'not_found', instance: truncate(path) };
  const rest = path.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  const webhookId = slash < 0 ? rest : rest.slice(0, slash);
  const token = slash < 0 ? undefined : rest.slice(slash + 1);
  if (!UID.test(webhookId) || (token !== undefined && !TOKEN.test(token))) {
    return { kind: 'not_found', instance: `${PREFIX}${UID.test(webhookId) ? webhookId : '…'}` };
  }
  const instance = token === undefined ? `${PREFIX}${webhookId}` : `${PREFIX}${webhookId}/{token}`;
  if (method !== 'POST') return { kind: 'method_not_allowed', instance };
  return { kind: 'delivery', webhookId, token, instance };
}

const truncate = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
