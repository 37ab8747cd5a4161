/**
 * The wire protocols the gateway speaks (docs/decisions.md §The model gateway): which request goes to
 * which provider, where the caller's key is, how each provider wants its own key, and each protocol's
 * error shape (a CLI only understands its provider's).
 */
import type http from 'node:http';
import type { ModelProviderName } from '../../settings';

/** How the gateway reads a route's answer for usage (metering.ts); `other` is forwarded without counting. */
export type Protocol = 'chat' | 'responses' | 'messages' | 'gemini' | 'other';

export interface GatewayRoute {
  provider: ModelProviderName;
  protocol: Protocol;
  /** Appended to the provider's base URL (OpenAI's base ends in /v1, the others are host roots). */
  upstreamPath: string;
  /** Gemini names the model in the path; the others in the JSON body. */
  model?: string;
}

const GEMINI_PATH = /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

export function matchRoute(method: string, pathname: string): GatewayRoute | undefined {
  if (method === 'POST' && pathname === '/v1/chat/completions') return { provider: 'openai', protocol: 'chat', upstreamPath: '/chat/completions' };
  if (method === 'POST' && pathname === '/v1/responses') return { provider: 'openai', protocol: 'responses', upstreamPath: '/responses' };
  if (method === 'GET' && pathname === '/v1/models') return { provider: 'openai', protocol: 'other', upstreamPath: '/models' };
  if (method === 'POST' && pathname === '/v1/messages') return { provider: 'anthropic', protocol: 'messages', upstreamPath: pathname };
  if (method === 'POST' && pathname === '/v1/messages/count_tokens') return { provider: 'anthropic', protocol: 'other', upstreamPath: pathname };
  const gemini = method === 'POST' ? GEMINI_PATH.exec(pathname) : null;
  if (gemini) {
    const counting = gemini[3] === 'countTokens';
    return { provider: 'gemini', protocol: counting ? 'other' : 'gemini', upstreamPath: pathname, model: decodeURIComponent(gemini[2]!) };
  }
  return undefined;
}

/** The key a CLI sends, wherever its SDK puts it: `Authorization: Bearer`, `x-api-key`, `x-goog-api-key` or `?key=`. */
export function presentedKey(headers: http.IncomingHttpHeaders, query: URLSearchParams): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key') ?? (query.get('key') || undefined);
}

// RFC 9110 §7.6.1 hop-by-hop headers, what the gateway sets itself (the whole body is sent at once: no
// `expect`), the caller's credentials (replaced by the provider's), and what would identify the operator's
// account or make the answer unreadable for metering (compression).
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'proxy-authorization',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
  'cookie',
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'openai-organization',
  'openai-project',
]);
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'set-cookie',
  'openai-organization',
  'openai-project',
  'anthropic-organization-id',
]);

function filtered(headers: http.IncomingHttpHeaders, dropped: Set<string>): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !dropped.has(name) && !name.startsWith('proxy-')) out[name] = value;
  }
  return out;
}

/** What goes upstream: the caller's headers without its credentials, with the provider's key as that provider wants it. */
export function upstreamHeaders(
  provider: ModelProviderName,
  incoming: http.IncomingHttpHeaders,
  apiKey: string | undefined,
  host: string,
  bodyLength: number,
): http.OutgoingHttpHeaders {
  const headers = filtered(incoming, DROPPED_REQUEST_HEADERS);
  headers.host = host;
  headers['accept-encoding'] = 'identity';
  if (bodyLength > 0) headers['content-length'] = bodyLength;
  if (apiKey) {
    if (provider === 'anthropic') headers['x-api-key'] = apiKey;
    else if (provider === 'gemini') headers['x-goog-api-key'] = apiKey;
    else headers.authorization = `Bearer ${apiKey}`;
  }
  return headers;
}

export const downstreamHeaders = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => filtered(headers, DROPPED_RESPONSE_HEADERS);

export type GatewayErrorKind = 'invalid_request' | 'unauthenticated' | 'not_found' | 'too_large' | 'budget_exceeded' | 'unavailable';

/** Status and type per provider; a budget refusal is the one each CLI treats as final rather than retrying soon. */
const ERRORS: Record<ModelProviderName, Record<GatewayErrorKind, readonly [number, string]>> = {
  openai: {
    invalid_request: [400, 'invalid_request_error'],
    unauthenticated: [401, 'invalid_api_key'],
    not_found: [404, 'not_found_error'],
    too_large: [413, 'invalid_request_error'],
    budget_exceeded: [429, 'insufficient_quota'],
    unavailable: [502, 'api_error'],
  },
  anthropic: {
    invalid_request: [400, 'invalid_request_error'],
    unauthenticated: [401, 'authentication_error'],
    not_found: [404, 'not_found_error'],
    too_large: [413, 'request_too_large'],
    budget_exceeded: [402, 'billing_error'],
    unavailable: [502, 'api_error'],
  },
  gemini: {
    invalid_request: [400, 'INVALID_ARGUMENT'],
    unauthenticated: [401, 'UNAUTHENTICATED'],
    not_found: [404, 'NOT_FOUND'],
    too_large: [413, 'INVALID_ARGUMENT'],
    budget_exceeded: [429, 'RESOURCE_EXHAUSTED'],
    unavailable: [502, 'UNAVAILABLE'],
  },
};

/**
 * Gemini CLI retries a bare `429 RESOURCE_EXHAUSTED` for minutes (ten attempts with back-off); it stops at
 * once on a quota that will not come back soon, which Google's API says with a `QuotaFailure` naming a
 * per-day quota. A budget refusal is that: the run's (or the team's month's) budget is spent.
 */
const GEMINI_BUDGET_DETAILS = [
  { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'agent-runs/budget', quotaId: 'RunBudgetPerDay' }] },
];

/** The protocol's own error answer: status and JSON body. */
export function gatewayError(provider: ModelProviderName, kind: GatewayErrorKind, message: string): { status: number; body: string } {
  const [status, type] = ERRORS[provider][kind];
  const details = kind === 'budget_exceeded' ? { details: GEMINI_BUDGET_DETAILS } : {};
  const body =
    provider === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : provider === 'gemini'
        ? { error: { code: status, message, status: type, ...details } }
        : { error: { message, type, param: null, code: type } };
  return { status, body: JSON.stringify(body) };
}
