/**
 * The ingress's answers, written straight to node:http (no Express on this path). Problem bodies and
 * their headers come from problems.ts `renderProblem`, as the REST API's do.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  databaseUnavailable,
  internalError,
  invalidRequest,
  methodNotAllowed,
  payloadTooLarge,
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  rateLimited,
  renderProblem,
  resourceNotFound,
  storageFull,
} from '../problems';

/** Same rule as http/request-id.ts: echo a safe incoming id, else the trace's id when the delivery began one, else generate one. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function assignRequestId(req: IncomingMessage, res: ServerResponse, rootTraceId?: string): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : (rootTraceId ?? `req_${randomUUID()}`);
  res.setHeader('x-request-id', id);
  return id;
}

export function answerAccepted(res: ServerResponse, deliveryId: string): void {
  const body = `{"delivery_id":${JSON.stringify(deliveryId)}}`;
  res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Writes `problem` as application/problem+json. `instance` is the request path with any url_token segment
 * already replaced by `{token}` (route.ts), so the credential is never echoed.
 */
export function answerProblem(res: ServerResponse, problem: ProblemError, instance: string, options: { close?: boolean } = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, headers, body } = renderProblem(problem, instance, String(res.getHeader('x-request-id') ?? ''));
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(text),
    ...(options.close ? { connection: 'close' } : {}),
  });
  res.end(text);
  if (options.close && !res.req.complete) lingerBeforeClosing(res);
}

/** How long a connection answered before its body ended keeps draining (not buffering) that body. */
const LINGER_MS = 2_000;

/**
 * A lingering close (RFC 9112 §9.6): closing a socket with unread bytes sends a reset, and a sender still
 * writing its body then loses the answer it was sent. So the rest of the body is read and dropped (never
 * buffered) until the sender stops or LINGER_MS pass; node:http's own close after the answer would destroy
 * the socket as soon as the answer is written.
 */
function lingerBeforeClosing(res: ServerResponse): void {
  const { req, socket } = res;
  if (!socket) return;
  req.removeAllListeners('data');
  req.resume();
  res.once('finish', () => {
    // node:http has just ended the socket (destroySoon: end, then destroy once the answer is written).
    socket.removeListener('finish', socket.destroy);
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
    req.once('end', close);
  });
}

// The ingress's problems, one per answer of the contract (openapi/v1.yaml, Ingress responses).
export const problems = {
  methodNotAllowed: () => methodNotAllowed('Only POST is accepted.', ['POST']),
  notFound: () => resourceNotFound('No enabled webhook at this URL.'),
  authBudgetSpent: (retryAfterSeconds: number) =>
    rateLimited(`Too many failed authentication attempts from this address; retry after ${retryAfterSeconds} seconds.`, retryAfterSeconds),
  tooLarge: (maxBytes: number) => payloadTooLarge(`The body exceeds ${maxBytes} bytes.`),
  // Not authenticationRequired(): its WWW-Authenticate: Bearer names the REST API's API-key scheme.
  unauthorized: () => new ProblemError(401, 'authentication_required', 'The webhook credential is missing or invalid.'),
  rateLimited: (retryAfterSeconds: number) =>
    rateLimited(`This webhook's delivery rate is spent; retry after ${retryAfterSeconds} seconds.`, retryAfterSeconds),
  invalidJson: () => invalidRequest('The body is not valid JSON.'),
  internal: () => internalError('The delivery could not be processed; retry later.'),
  storageFull,
  databaseUnavailable,
};
