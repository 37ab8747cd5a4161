/**
 * The RFC 7807 problem body every 4xx/5xx of the API answers (`application/problem+json`). The
 * error code is the last segment of `type` (`https://agent-runs.dev/errors/<code>`).
 */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  /** Human-readable title and detail in one string. */
  error?: string;
  retryable?: boolean;
  /** Equals the response's `x-request-id`. */
  trace_id?: string;
  /** Validation details (422 `validation_failed`). */
  errors?: Array<{ path: string; message: string }>;
  /** Per-file problems of a definition apply. */
  file_errors?: Array<{ file: string; message: string }>;
  [key: string]: unknown;
}

/** Base class of every error this SDK throws. */
export class AgentRunsError extends Error {
  override name = 'AgentRunsError';
}

export class APIError<
  TStatus extends number | undefined = number | undefined,
  THeaders extends Headers | undefined = Headers | undefined,
> extends AgentRunsError {
  override name = 'APIError';
  /** HTTP status of the response; undefined for connection errors and aborts. */
  readonly status: TStatus;
  /** Headers of the response; undefined for connection errors and aborts. */
  readonly headers: THeaders;
  /** The parsed response body: a Problem when the server answered one, else its text. */
  readonly body: Problem | string | undefined;
  /** Error code: last segment of the problem `type`, e.g. `resource_not_found`. */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** The server's word on whether repeating the request can succeed. */
  readonly retryable: boolean | undefined;
  /** Validation details of a 422, if any. */
  readonly errors: Problem['errors'];
  /** `x-request-id` of the response (the problem's `trace_id`); quote it when reporting an issue. */
  readonly requestId: string | undefined;

  constructor(status: TStatus, body: unknown, message: string | undefined, headers: THeaders) {
    const problem = asProblem(body);
    const code = problem ? problemCode(problem) : undefined;
    super(APIError.makeMessage(status, problem, code, body, message));
    this.status = status;
    this.headers = headers;
    this.body = problem ?? (typeof body === 'string' && body !== '' ? body : undefined);
    this.code = code;
    this.title = typeof problem?.title === 'string' ? problem.title : undefined;
    this.detail = typeof problem?.detail === 'string' ? problem.detail : undefined;
    this.retryable = typeof problem?.retryable === 'boolean' ? problem.retryable : undefined;
    this.errors = Array.isArray(problem?.errors) ? problem.errors : undefined;
    this.requestId = headers?.get('x-request-id') ?? (typeof problem?.trace_id === 'string' ? problem.trace_id : undefined);
  }

  private static makeMessage(
    status: number | undefined,
    problem: Problem | undefined,
    code: string | undefined,
    body: unknown,
    message: string | undefined,
  ): string {
    if (message) return status ? `${status} ${message}` : message;
    if (problem) {
      const label = code ?? problem.title;
      const detail = problem.detail ?? (typeof problem.error === 'string' ? problem.error : undefined);
      const text = [label, detail].filter(Boolean).join(': ') || JSON.stringify(problem);
      return status ? `${status} ${text}` : text;
    }
    if (typeof body === 'string' && body !== '') return status ? `${status} ${body.slice(0, 500)}` : body;
    return status ? `${status} status code (no body)` : '(no status code or body)';
  }

  /** The APIError subclass for `status`, built from the (parsed) response body. */
  static generate(status: number, body: unknown, headers: Headers, message?: string): APIError<number, Headers> {
    const ErrorClass = errorClassForStatus(status);
    return new ErrorClass(status, body, message, headers);
  }
}

export class BadRequestError extends APIError<400, Headers> {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError<401, Headers> {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError<403, Headers> {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError<404, Headers> {
  override name = 'NotFoundError';
}
export class ConflictError extends APIError<409, Headers> {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends APIError<422, Headers> {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends APIError<429, Headers> {
  override name = 'RateLimitError';
}
export class InternalServerError extends APIError<number, Headers> {
  override name = 'InternalServerError';
}

export class APIConnectionError extends APIError<undefined, undefined> {
  override name = 'APIConnectionError';
  constructor({ message, cause }: { message?: string | undefined; cause?: unknown } = {}) {
    super(undefined, undefined, message || 'Connection error.', undefined);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor({ message, cause }: { message?: string | undefined; cause?: unknown } = {}) {
    super({ message: message ?? 'Request timed out.', cause });
  }
}

/** The caller's AbortSignal aborted the request. Never retried. */
export class APIUserAbortError extends APIError<undefined, undefined> {
  override name = 'APIUserAbortError';
  constructor({ message, cause }: { message?: string | undefined; cause?: unknown } = {}) {
    super(undefined, undefined, message || 'Request was aborted.', undefined);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

type StatusErrorClass = new (status: number, body: unknown, message: string | undefined, headers: Headers) => APIError<number, Headers>;

function errorClassForStatus(status: number): StatusErrorClass {
  switch (status) {
    case 400:
      return BadRequestError as StatusErrorClass;
    case 401:
      return AuthenticationError as StatusErrorClass;
    case 403:
      return PermissionDeniedError as StatusErrorClass;
    case 404:
      return NotFoundError as StatusErrorClass;
    case 409:
      return ConflictError as StatusErrorClass;
    case 422:
      return UnprocessableEntityError as StatusErrorClass;
    case 429:
      return RateLimitError as StatusErrorClass;
    default:
      return status >= 500 ? InternalServerError : (APIError as StatusErrorClass);
  }
}

function asProblem(body: unknown): Problem | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Problem) : undefined;
}

/** `https://agent-runs.dev/errors/rate_limited` → `rate_limited`; a body `code` is the fallback. */
function problemCode(problem: Problem): string | undefined {
  if (typeof problem.type === 'string' && problem.type !== '' && problem.type !== 'about:blank') {
    const segment = problem.type.replace(/\/+$/, '').split('/').pop();
    if (segment) return segment;
  }
  return typeof problem['code'] === 'string' ? problem['code'] : undefined;
}
