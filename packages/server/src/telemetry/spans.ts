/**
 * The service's spans (docs/decisions.md §Traces). Every helper is cheap when tracing is off: the API's
 * no-op tracer starts non-recording spans, and a trace context is then neither read nor stored.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

const tracer = () => trace.getTracer('agent-runs');

/** Runs `work` inside a new child span of the active one; a thrown error marks the span as failed. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; parent?: Context } = {},
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind: options.kind ?? SpanKind.INTERNAL }, options.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Starts a span the caller ends (a request's, ended when its answer is sent). */
export const startSpan = (name: string, attributes: Attributes, kind: SpanKind, parent: Context = context.active()): Span =>
  tracer().startSpan(name, { attributes, kind }, parent);

/** Only the error's class: a message may quote what a span must never carry (a command's output, a URL). */
function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
}

/** Sets attributes on the active span, if there is one (a run's final state, a delivery's label). */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Marks a step of the active span's work (a delivery's pipeline steps: resolved, verified, committed). */
export function spanEvent(name: string): void {
  trace.getActiveSpan()?.addEvent(name);
}

/** The active span's ids for a log line: `{trace_id, span_id}`, or nothing when no span is recording. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Records that a run was queued, as a child of the active span (the automation match of a delivery, a
 * request), and returns that span's W3C `traceparent` for the run row, so the worker that claims the run
 * continues this trace; null when nothing is traced.
 */
export function recordRunQueued(runId: string, source: string): string | null {
  const span = tracer().startSpan('run queued', { attributes: { 'run.id': runId, 'run.source': source } });
  span.end();
  const carrier: { traceparent?: string } = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return carrier.traceparent ?? null;
}

/**
 * Runs a claimed run's execution in the trace that queued it (`traceparent` from the run row): a `run claimed`
 * span, then `run execution` under it for `work`, with the run's steps below.
 */
export function traceRunExecution<T>(run: { id: string; team_id: string; trace_context: string | null }, work: () => Promise<T>): Promise<T> {
  const queued = run.trace_context ? propagation.extract(ROOT_CONTEXT, { traceparent: run.trace_context }) : ROOT_CONTEXT;
  const attributes = { 'run.id': run.id, 'team.id': run.team_id };
  const claimed = startSpan('run claimed', attributes, SpanKind.INTERNAL, queued);
  claimed.end();
  return inSpan('run execution', attributes, () => work(), { parent: trace.setSpan(queued, claimed) });
}

/** Runs `work` with `parent` as the active context (a delivery's span inside the shared commit of its batch). */
export const withTraceContext = <T>(parent: Context, work: () => Promise<T>): Promise<T> => context.with(parent, work);

export const activeTraceContext = (): Context => context.active();

export { SpanKind, type Context, type Span };
