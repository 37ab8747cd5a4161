/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector is to the server's exporter: it takes the JSON
 * encoding of `ExportTraceServiceRequest` at POST /v1/traces and keeps every span it was sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: string[];
  serviceName: unknown;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        events?: Array<{ name: string }>;
      }>;
    }>;
  }>;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporter appends /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** The content types the exports came with. */
  contentTypes: string[];
  close(): Promise<void>;
}

const valueOf = (value: OtlpValue): unknown =>
  value.arrayValue
    ? (value.arrayValue.values ?? []).map(valueOf)
    : (value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue)));

const attributesOf = (attributes: OtlpAttribute[] = []): Record<string, unknown> => Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      contentTypes.push(String(req.headers['content-type']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              events: (span.events ?? []).map((e) => e.name),
              serviceName,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
