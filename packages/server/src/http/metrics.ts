/**
 * Prometheus metrics of one server on prom-client, in a registry of its own (not prom-client's global one:
 * tests run several servers in one process): requests and their duration by method, route and status (REST
 * and ingress), webhook deliveries by delivery-log label, runs by state sampled at scrape time, and the
 * roles of the process (ROLE).
 *
 * `route` has bounded cardinality: a REST request's contract operationId (api/operations.ts), the ingress's
 * fixed pattern, an operational endpoint's path, or `unmatched`.
 */
import type { Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ProcessRole } from '../settings';

const REQUEST_LABELS = ['method', 'route', 'status'] as const;
type RequestLabel = (typeof REQUEST_LABELS)[number];

export type RunsByState = () => Promise<Array<{ state: string; count: number }>>;

export class ServerMetrics {
  readonly #registry = new Registry();
  readonly #requests = new Counter<RequestLabel>({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: REQUEST_LABELS,
    registers: [this.#registry],
  });
  // prom-client's default buckets (5 ms to 10 s).
  readonly #durations = new Histogram<RequestLabel>({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status.',
    labelNames: REQUEST_LABELS,
    registers: [this.#registry],
  });
  readonly #streamedResponses = new Gauge<'route'>({
    name: 'http_streamed_responses',
    help: 'Answers being streamed (conversations, transcripts) by route, until their producer has stopped.',
    labelNames: ['route'],
    registers: [this.#registry],
  });
  readonly #deliveries = new Counter<'label'>({
    name: 'webhook_deliveries_total',
    help: 'Webhook deliveries by delivery-log label.',
    labelNames: ['label'],
    registers: [this.#registry],
  });

  constructor(runsByState: RunsByState, roles: Iterable<ProcessRole>) {
    const processRole = new Gauge<'role'>({
      name: 'process_role',
      help: 'The roles this process serves (ROLE).',
      labelNames: ['role'],
      registers: [this.#registry],
    });
    for (const role of roles) processRole.set({ role }, 1);
    new Gauge({
      name: 'runs_in_state',
      help: 'Runs currently in each state.',
      labelNames: ['state'],
      registers: [this.#registry],
      async collect() {
        // A state with no runs left is dropped, not kept at its last count.
        this.reset();
        for (const { state, count } of await runsByState()) this.set({ state }, count);
      },
    });
  }

  /** Starts timing a request; call the result once it is answered. */
  startRequest(): (method: string, route: string, status: number) => void {
    const end = this.#durations.startTimer();
    return (method, route, status) => {
      const labels = { method, route, status: String(status) };
      end(labels);
      this.#requests.inc(labels);
    };
  }

  countDelivery(label: string): void {
    this.#deliveries.inc({ label });
  }

  /** Records every Express response once it has finished. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const answered = this.startRequest();
      res.locals[STREAMED_RESPONSES] = this.#streamedResponses;
      res.on('finish', () => answered(req.method, routeOf(req, res), res.statusCode));
      next();
    };
  }

  /** The text exposition format, with its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.#registry.contentType, body: await this.#registry.metrics() };
  }
}

const STREAMED_RESPONSES = 'streamedResponses';

/** Counts a streamed answer (http/streamed-body.ts) as open until the function it returns is called. */
export function streamedResponseOpened(req: Request<any, any, any, any>, res: Response): () => void {
  const gauge = res.locals[STREAMED_RESPONSES] as Gauge<'route'> | undefined;
  const labels = { route: routeOf(req, res) };
  gauge?.inc(labels);
  return () => gauge?.dec(labels);
}

/** The operation the REST router named (api/operations.ts), else an app-level route's path, else `unmatched`. */
function routeOf(req: Request<any, any, any, any>, res: Response): string {
  const operationId: unknown = res.locals.operationId;
  if (typeof operationId === 'string') return operationId;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : 'unmatched';
}
