/**
 * THE problem error (docs/wire.md §Errors): every 4xx/5xx this service answers is an RFC 7807
 * `application/problem+json` body rendered from a ProblemError. Domain code throws them; the REST API
 * (http/problem.ts) and the webhook ingress (ingress/answer.ts) write them out.
 */

import type { components } from '@agent-runs/contract';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const PROBLEM_TYPE_BASE = 'https://agent-runs.dev/errors/';

export type ProblemCode =
  | 'invalid_request'
  | 'authentication_required'
  | 'not_authorized'
  | 'resource_not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'payload_too_large'
  | 'limit_exceeded'
  | 'validation_failed'
  | 'request_header_fields_too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

const TITLES: Record<ProblemCode, string> = {
  invalid_request: 'Invalid request',
  authentication_required: 'Authentication required',
  not_authorized: 'Not authorized',
  resource_not_found: 'Resource not found',
  method_not_allowed: 'Method not allowed',
  request_timeout: 'Request timeout',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  limit_exceeded: 'Limit exceeded',
  validation_failed: 'Validation failed',
  request_header_fields_too_large: 'Request header fields too large',
  rate_limited: 'Rate limited',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
};

export interface ProblemExtras {
  /** Validation details: JSON path (or parameter) and what is wrong with it. */
  errors?: components['schemas']['ErrorDetail'][];
  /** Definition apply: per-file errors. */
  file_errors?: components['schemas']['FileError'][];
  /** Overrides the default retryability of the status (429/5xx and in-flight conflicts are retryable). */
  retryable?: boolean;
  /** Seconds for the Retry-After header (429, 503). */
  retryAfterSeconds?: number;
  /** Extra response headers (e.g. WWW-Authenticate, Allow). */
  headers?: Record<string, string>;
  [member: string]: unknown;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly detail: string;
  readonly extras: ProblemExtras;

  constructor(status: number, code: ProblemCode, detail: string, extras: ProblemExtras = {}) {
    super(detail);
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extras = extras;
  }
}

// One factory per code, so call sites read as the rule they enforce.
export const invalidRequest = (detail: string, errors?: ProblemExtras['errors']) => new ProblemError(400, 'invalid_request', detail, errors ? { errors } : {});
export const authenticationRequired = (detail = 'A valid API key is required: send `Authorization: Bearer <key>`.') =>
  new ProblemError(401, 'authentication_required', detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const notAuthorized = (detail = 'This API key is not allowed to perform this operation.') => new ProblemError(403, 'not_authorized', detail);
export const resourceNotFound = (detail: string) => new ProblemError(404, 'resource_not_found', detail);
export const methodNotAllowed = (detail: string, allow?: string[]) =>
  new ProblemError(405, 'method_not_allowed', detail, allow ? { headers: { Allow: allow.join(', ') } } : {});
export const conflict = (detail: string, extras: ProblemExtras = {}) => new ProblemError(409, 'conflict', detail, extras);
export const payloadTooLarge = (detail: string) => new ProblemError(413, 'payload_too_large', detail);
export const limitExceeded = (detail: string) => new ProblemError(409, 'limit_exceeded', detail);
export const validationFailed = (detail: string, extras: ProblemExtras = {}) => new ProblemError(422, 'validation_failed', detail, extras);
export const rateLimited = (detail: string, retryAfterSeconds: number) => new ProblemError(429, 'rate_limited', detail, { retryAfterSeconds });
export const internalError = (detail = 'The server failed to process the request.') => new ProblemError(500, 'internal_error', detail);
export const serviceUnavailable = (detail: string, retryAfterSeconds: number) => new ProblemError(503, 'service_unavailable', detail, { retryAfterSeconds });
/** How long a client waits before retrying a write refused for a full disk. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;
/** A write the database refused for lack of space (db/dialect.ts isOutOfStorage): retryable once space returns. */
export const storageFull = () =>
  serviceUnavailable('The server cannot store anything right now: its storage is full. Retry later.', STORAGE_FULL_RETRY_AFTER_SECONDS);
/** A request whose database was unreachable (db/dialect.ts isDatabaseUnreachable): PostgreSQL restarting, say. */
export const databaseUnavailable = () => serviceUnavailable('The database is unreachable right now. Retry shortly.', 2);
// node:http's own refusals (http/client-errors.ts).
export const requestTimeout = (detail: string) => new ProblemError(408, 'request_timeout', detail, { retryable: true });
export const requestHeaderFieldsTooLarge = (detail: string) => new ProblemError(431, 'request_header_fields_too_large', detail);

export type ProblemBody = components['schemas']['Error'];

const defaultRetryable = (status: number) => status === 429 || status >= 500;

export interface RenderedProblem {
  status: number;
  headers: Record<string, string>;
  body: ProblemBody;
}

/** The answer for `problem`: `instance` is the request path, `traceId` the response's x-request-id. */
export function renderProblem(problem: ProblemError, instance: string, traceId: string): RenderedProblem {
  const { status, code, detail, extras } = problem;
  const { errors, file_errors, retryable, retryAfterSeconds, headers } = extras;
  const title = TITLES[code];
  const body: ProblemBody = {
    type: PROBLEM_TYPE_BASE + code,
    title,
    status,
    detail,
    instance,
    error: `${title}: ${detail}`,
    retryable: retryable ?? defaultRetryable(status),
    trace_id: traceId,
  };
  if (errors) body.errors = errors;
  if (file_errors) body.file_errors = file_errors;
  const out: Record<string, string> = { ...headers };
  if ((status === 409 || status === 422) && !body.retryable) out['x-should-retry'] = 'false';
  if (status === 429 || status === 503) out['Retry-After'] = String(retryAfterSeconds ?? 1);
  return { status, headers: out, body };
}
