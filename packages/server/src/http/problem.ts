/**
 * The REST API's problem answers: anything raised while serving a request (our code, body-parser, the
 * OpenAPI validator, an unexpected exception) becomes a ProblemError (problems.ts) written as
 * `application/problem+json`.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { REST_BASE_PATH } from './validator';
import { isDatabaseUnreachable, isOutOfStorage } from '../db/dialect';
import {
  authenticationRequired,
  databaseUnavailable,
  internalError,
  invalidRequest,
  payloadTooLarge,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  renderProblem,
  resourceNotFound,
  storageFull,
} from '../problems';

/** Writes a problem response. `instance` is the request path, `trace_id` the response's x-request-id. */
export function sendProblem(res: Response, problem: ProblemError): void {
  const rendered = renderProblem(problem, res.req.originalUrl.split('?')[0] ?? res.req.path, String(res.getHeader('x-request-id') ?? ''));
  for (const [name, value] of Object.entries(rendered.headers)) res.setHeader(name, value);
  // res.json (not send): under test the response validator checks problem bodies and their status against
  // the operation's declared responses too.
  res.status(rendered.status).type(PROBLEM_CONTENT_TYPE).json(rendered.body);
}

/** Errors raised by express-openapi-validator (it throws objects with status + errors[]). */
interface ValidatorError {
  status: number;
  message?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
  headers?: Record<string, string>;
}

/** body-parser errors carry `type` (e.g. 'entity.parse.failed') and `status`. */
interface BodyParserError {
  type: string;
  status: number;
  expose?: boolean;
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && typeof (err as ValidatorError).status === 'number' && Array.isArray((err as ValidatorError).errors);
}

const BODY_PARSER_TYPES = new Set([
  'entity.parse.failed',
  'entity.too.large',
  'entity.verify.failed',
  'encoding.unsupported',
  'charset.unsupported',
  'request.aborted',
  'request.size.invalid',
  'stream.encoding.set',
]);

function isBodyParserError(err: unknown): err is BodyParserError {
  return typeof err === 'object' && err !== null && BODY_PARSER_TYPES.has(String((err as BodyParserError).type));
}

/**
 * body-parser passes on zlib's error (no `type`) when a `Content-Encoding: gzip | deflate | br` body does not
 * decode: zlib codes are `Z_…`, brotli's `ERR__ERROR_…`.
 */
function isDecodeError(err: unknown): err is { code: string } {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(Z_|ERR__ERROR)/.test(code);
}

/**
 * The validator's `/body/config/max_turns` → `$.config.max_turns` (paths from the body root as `$`, as the
 * contract says); `/query/limit` → `query.limit`; `/params/runId` → `path.runId`; `/headers/x` → `header.x`.
 */
export function clientPath(raw: string | undefined): string {
  if (!raw) return '$';
  const segments = raw
    .replace(/^\.?\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  const [where, ...rest] = segments;
  const join = (root: string) => rest.reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : `${acc}.${seg}`), root);
  switch (where) {
    case 'body':
      return join('$');
    case 'query':
      return join('query');
    case 'params':
      return join('path');
    case 'headers':
      return join('header');
    default:
      return segments.length ? join(`$.${where}`) : '$';
  }
}

/** Maps anything thrown to a ProblemError; unknown errors become 500 with no internals on the wire. */
export function toProblem(err: unknown, log?: Logger, request?: { headers: Record<string, string | string[] | undefined> }): ProblemError {
  if (err instanceof ProblemError) return err;

  if (isBodyParserError(err)) {
    switch (err.type) {
      case 'entity.parse.failed':
        return invalidRequest('The request body is not valid JSON.');
      case 'entity.too.large':
        return payloadTooLarge('The request body is too large.');
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return invalidRequest('The request body encoding or charset is not supported.');
      case 'request.aborted':
        return invalidRequest('The request was aborted by the client.');
      default:
        return invalidRequest('The request body could not be read.');
    }
  }

  if (isDecodeError(err)) {
    // Only gzip, deflate and br reach zlib (body-parser refuses other encodings first).
    const encoding = String(request?.headers['content-encoding'] ?? 'its Content-Encoding').toLowerCase();
    return invalidRequest(`The request body could not be decoded as ${encoding}.`);
  }

  if (isValidatorError(err)) {
    const errors = (err.errors ?? []).map((e) => ({ path: clientPath(e.path), message: e.message ?? 'is invalid' }));
    const summary = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
    switch (err.status) {
      case 400:
        return invalidRequest(summary ? `The request is invalid: ${summary}.` : 'The request is invalid.', errors);
      case 404:
        return resourceNotFound('No such endpoint.');
      case 405:
        return new ProblemError(405, 'method_not_allowed', 'This method is not allowed on this path.', {
          headers: err.headers?.Allow ? { Allow: err.headers.Allow } : {},
        });
      case 413:
        return payloadTooLarge('The request body is too large.');
      case 415:
        // The code set of docs/wire.md §Errors has no 415 code: an unreadable body is an invalid request.
        return invalidRequest('Send the request body as application/json.', errors);
      case 401:
      case 403:
        return authenticationRequired();
      case 500:
        // validateResponses: the server answered something the contract does not allow (tests enable this).
        log?.error({ errors: err.errors }, 'response does not match the OpenAPI contract');
        return new ProblemError(500, 'internal_error', `The response broke the contract: ${summary}`, { errors });
      default:
        return new ProblemError(err.status >= 500 ? 500 : 400, err.status >= 500 ? 'internal_error' : 'invalid_request', summary || 'The request is invalid.', {
          errors,
        });
    }
  }

  if (isOutOfStorage(err)) {
    log?.error({ err }, 'the database is out of storage');
    return storageFull();
  }

  if (isDatabaseUnreachable(err)) {
    log?.warn({ err }, 'the database is unreachable');
    return databaseUnavailable();
  }

  log?.error({ err }, 'unhandled error');
  return internalError();
}

/** The express error handler: the last middleware of the app. */
export function problemErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      // Streaming responses (SSE) cannot change status any more; end the response.
      log.error({ err, path: req.path }, 'error after the response started');
      res.end();
      return;
    }
    const problem = toProblem(err, (req as { log?: Logger }).log ?? log, req);
    sendProblem(res, problem);
    void next;
  };
}

/**
 * 404 for any path no router answered. Outside the REST API (`GET /` first of all) it names the API root:
 * whoever opens the server's address in a browser learns where the API is.
 */
export function notFoundHandler(apiRoot: () => string): RequestHandler {
  return (req, _res, next) => {
    const detail = `No route for ${req.method} ${req.path}.`;
    if (req.path === REST_BASE_PATH || req.path.startsWith(`${REST_BASE_PATH}/`)) return next(resourceNotFound(detail));
    const root = apiRoot();
    next(resourceNotFound(`${detail} The REST API is at ${root} (e.g. GET ${root}/agent/runs with "Authorization: Bearer <API key>").`));
  };
}
