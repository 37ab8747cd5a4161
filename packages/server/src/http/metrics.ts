/**
 * Prometheus text metrics without extra dependencies: request counts and duration histograms by
 * method/route/status (REST and ingress), counters of events (webhook deliveries by log label), plus
 * gauges the app samples at scrape time (runs by state).
 */
import type { RequestHandler } from 'express';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',');

export type GaugeSampler = () => Promise<Array<{ name: string; help: string; samples: Array<{ labels: Record<string, string>; value: number }> }>>;

export class HttpMetrics {
  readonly #series = new Map<string, { labels: Record<string, string>; series: Series }>();
  readonly #samplers: GaugeSampler[] = [];
  /** Counters by name: their help text and a value per label set. */
  readonly #counters = new Map<string, { help: string; values: Map<string, number> }>();

  /** Adds one to a counter (created on first use); label values must have bounded cardinality. */
  increment(name: string, help: string, counterLabels: Record<string, string>): void {
    let counter = this.#counters.get(name);
    if (!counter) {
      counter = { help, values: new Map() };
      this.#counters.set(name, counter);
    }
    const key = labels(counterLabels);
    counter.values.set(key, (counter.values.get(key) ?? 0) + 1);
  }

  /** Registers a gauge sampler run at scrape time (e.g. runs by state). */
  addSampler(sampler: GaugeSampler): void {
    this.#samplers.push(sampler);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const l = { method, route, status: String(status) };
    const key = labels(l);
    let entry = this.#series.get(key);
    if (!entry) {
      entry = { labels: l, series: { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) } };
      this.#series.set(key, entry);
    }
    entry.series.count += 1;
    entry.series.sum += seconds;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) entry.series.buckets[i]! += 1;
    });
  }

  /** Middleware recording every response under its route pattern (not the raw path: bounded cardinality). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const start = process.hrtime.bigint();
      res.on('finish', () => {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        this.observe(req.method, routeOf(req), res.statusCode, seconds);
      });
      next();
    };
  }

  async render(): Promise<string> {
    const lines: string[] = [
      '# HELP http_requests_total HTTP requests by method, route and status.',
      '# TYPE http_requests_total counter',
    ];
    for (const { labels: l, series } of this.#series.values()) lines.push(`http_requests_total{${labels(l)}} ${series.count}`);
    lines.push(
      '# HELP http_request_duration_seconds HTTP request duration by method, route and status.',
      '# TYPE http_request_duration_seconds histogram',
    );
    for (const { labels: l, series } of this.#series.values()) {
      BUCKETS.forEach((b, i) => lines.push(`http_request_duration_seconds_bucket{${labels({ ...l, le: String(b) })}} ${series.buckets[i]}`));
      lines.push(`http_request_duration_seconds_bucket{${labels({ ...l, le: '+Inf' })}} ${series.count}`);
      lines.push(`http_request_duration_seconds_sum{${labels(l)}} ${series.sum}`);
      lines.push(`http_request_duration_seconds_count{${labels(l)}} ${series.count}`);
    }
    for (const [name, { help, values }] of this.#counters) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [key, value] of values) lines.push(`${name}{${key}} ${value}`);
    }
    for (const sampler of this.#samplers) {
      for (const gauge of await sampler()) {
        lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
        for (const s of gauge.samples) lines.push(`${gauge.name}{${labels(s.labels)}} ${s.value}`);
      }
    }
    return lines.join('\n') + '\n';
  }
}

/** The matched route pattern (e.g. /api/v1/agent/runs/:runId), or `unmatched`. */
function routeOf(req: Parameters<RequestHandler>[0]): string {
  const route = (req as { route?: { path?: unknown } }).route?.path;
  if (typeof route === 'string') return req.baseUrl + route;
  return 'unmatched';
}
