/**
 * Server spans (docs/decisions.md §Traces): one per REST request, named by the contract's route template
 * (`GET /api/v1/agent/runs/{runId}`, set by api/operations.ts) or the app's own route, and one per webhook
 * delivery (ingress/pipeline.ts), each with the answer's status. A caller's `traceparent` is continued.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';
import { startSpan } from './spans';

const TRACE_ROOT = 'traceRootId';

interface ServerSpan {
  span: Span;
  /** The trace id when this request began its trace (no caller's `traceparent`): its request id (http/request-id.ts). */
  rootTraceId: string | undefined;
  /** Runs `work` with the span active. */
  within<T>(work: () => T): T;
}

function startServerSpan(req: IncomingMessage, res: ServerResponse, name: string, onClose: (span: Span) => void): ServerSpan {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = startSpan(name, { 'http.request.method': req.method ?? '' }, SpanKind.SERVER, parent);
  // Tracing off (the ingress is always wrapped): the no-op span needs neither a listener nor a context.
  if (!isSpanContextValid(span.spanContext())) return { span, rootTraceId: undefined, within: (work) => work() };
  res.once('close', () => {
    onClose(span);
    span.setAttribute('http.response.status_code', res.statusCode);
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') span.setAttribute('http.request.id', requestId);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  const active = trace.setSpan(parent, span);
  return {
    span,
    rootTraceId: !trace.getSpan(parent) && span.isRecording() ? span.spanContext().traceId : undefined,
    within: (work) => context.with(active, work),
  };
}

/** The REST request span, mounted by app.ts only when tracing is on. */
export function traceRequests(restBasePath: string): RequestHandler {
  return (req, res, next) => {
    const server = startServerSpan(req, res, req.method, (span) => {
      const template: unknown = res.locals.routeTemplate;
      const route = typeof template === 'string' ? `${restBasePath}${template}` : (req.route as { path?: unknown } | undefined)?.path;
      if (typeof route === 'string') span.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
    });
    if (server.rootTraceId) res.locals[TRACE_ROOT] = server.rootTraceId;
    server.within(next);
  };
}

/** The trace id of a REST request whose span began a new trace, else undefined. */
export const traceIdOfRequest = (res: Response): string | undefined => res.locals[TRACE_ROOT] as string | undefined;

/** A webhook delivery's span around `handle`, given the trace id when the delivery began its trace. */
export function traceDelivery(req: IncomingMessage, res: ServerResponse, route: string, handle: (rootTraceId: string | undefined) => void): void {
  const server = startServerSpan(req, res, `${req.method ?? 'POST'} ${route}`, () => {});
  server.span.setAttribute('http.route', route);
  server.within(() => handle(server.rootTraceId));
}
