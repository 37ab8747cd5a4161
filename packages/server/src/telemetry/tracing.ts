/**
 * OpenTelemetry traces (docs/decisions.md §Traces): the SDK for Node with the OTLP/HTTP exporter (JSON),
 * configured by the standard OTEL_* variables (settings.ts `tracing`). Off unless an endpoint is named: then
 * nothing is registered and every span below is the API's no-op.
 *
 * The OpenTelemetry API is process-global by design (its context manager follows async calls), so the
 * provider is registered once per process by main.ts and unregistered by its shutdown; the spans' helpers
 * are in spans.ts.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingSettings } from '../settings';

export interface Tracing {
  /** Exports every ended span, then unregisters the provider (a later start in this process may register anew). */
  shutdown(): Promise<void>;
}

export function startTracing(settings: TracingSettings): Tracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: samplerOf(settings),
    // The exporter reads OTEL_EXPORTER_OTLP_HEADERS and _TIMEOUT itself: headers may hold a collector's
    // credential, which settings never carry into a log line. The batch reads OTEL_BSP_*.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.endpoint }))],
  });
  provider.register();
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

function samplerOf({ sampler, samplerRatio }: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(samplerRatio);
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
  }
}
