/**
 * The ingress's answers, written straight to node:http (no Express on this path).
 *
 * Problem bodies come from THE problem helper (http/problem.ts `sendProblem`), driven through the few
 * members of an Express response it uses, so the ingress and the REST API share one implementation of the
 * RFC 7807 shape (type, title, status, detail, instance, error, retryable, trace_id, Retry-After,
 * x-should-retry).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import {
  methodNotAllowed,
  payloadTooLarge,
  invalidRequest,
  ProblemError,
  rateLimited,
  resourceNotFound,
  sendProblem,
  internalError,
} from '../http/problem';

/** Same rule as http/request-id.ts: echo a safe incoming id, else generate one. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
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
  if (options.close) res.setHeader('connection', 'close');
  const end = (body: string) => {
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
  };
  // The members of an Express response that sendProblem uses, over the bare node:http response.
  const adapter = {
    req: { originalUrl: instance, path: instance },
    getHeader: (name: string) => res.getHeader(name),
    setHeader(name: string, value: string) {
      res.setHeader(name, value);
      return adapter;
    },
    status(code: number) {
      res.statusCode = code;
      return adapter;
    },
    type(contentType: string) {
      res.setHeader('content-type', contentType);
      return adapter;
    },
    json(body: unknown) {
      end(JSON.stringify(body));
      return adapter;
    },
    send(body: string) {
      end(body);
      return adapter;
    },
  };
  sendProblem(adapter as unknown as Response, problem);
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
};
