/**
 * OpenTelemetry traces (docs/decisions.md §Traces), received as a collector receives them: the server
 * exports OTLP/HTTP JSON to a receiver on 127.0.0.1. A webhook delivery and the run it starts are one trace,
 * across the run row the worker claims later (delivery → automation match → run queued → run claimed →
 * run execution → run agent → agent command); a run created through the API continues its request's trace
 * down to its model calls through the gateway and its tool calls; REST requests have their route template as
 * span name, and a problem's trace_id opens its trace; request and run log lines carry trace_id and span_id;
 * each notification attempt is a span; the OTEL_* settings.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { apiClient, waitForRunState } from '../support/http';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { createAutomation, deliver, factoryWithWebhook, runsWhere, startWorld, trigger, type AutomationWorld } from '../automations/helpers';
import { FakeModel, text, toolCalls } from '../agent/support/fake-model';
import { startTestServer } from '../support/server';
import { loadSettings, SettingsError } from '../../src/settings';
import { createRun, startNotificationWorld } from '../notifications/helpers';

const SERVER = 2;
const CLIENT = 3;

/** The one span of `spans` named `name` that `where` picks. */
function only(spans: ReceivedSpan[], name: string, where: (span: ReceivedSpan) => boolean = () => true): ReceivedSpan {
  const found = spans.filter((span) => span.name === name && where(span));
  expect(found, `${name} among ${spans.map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

describe.each(testDatabases())('traces (%s)', (kind) => {
  let receiver: OtlpReceiver;
  let world: AutomationWorld;
  const lines: Array<Record<string, unknown>> = [];
  let runId: string;
  let deliveryId: string;
  let problem: { status: number; trace_id: string; requestId: string | null };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    world = await startWorld(kind, {
      engine: {},
      log,
      env: { RUNNER: 'command', AGENT_COMMAND: 'echo traced', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'agent-runs-under-test' },
    });
    const { admin, server } = world;
    const hook = await factoryWithWebhook(admin);
    const automation = await createAutomation(admin, hook.factory, { triggers: [trigger([hook.uid], { action: ['opened'] })] });
    deliveryId = await deliver(hook, '{"action":"opened"}');
    const [run] = await runsWhere(admin, `automation_id=${automation.uid}`);
    runId = run.run_id as string;
    const client = apiClient(server.apiUrl, server.adminKey);
    await waitForRunState(client, runId, ['SUCCEEDED']);
    const missing = await fetch(`${server.apiUrl}/agent/runs/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    problem = { status: missing.status, trace_id: ((await missing.json()) as { trace_id: string }).trace_id, requestId: missing.headers.get('x-request-id') };
    // Shutting down exports every ended span.
    await world.close();
  });
  afterAll(() => receiver?.close());

  const named = (name: string, where?: (span: ReceivedSpan) => boolean): ReceivedSpan => only(receiver.spans, name, where);

  it('exports OTLP/HTTP JSON under OTEL_SERVICE_NAME', () => {
    expect(receiver.contentTypes.length).toBeGreaterThan(0);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/json']));
    expect(new Set(receiver.spans.map((span) => span.serviceName))).toEqual(new Set(['agent-runs-under-test']));
  });

  it('one trace from the webhook delivery to the command its run ran', () => {
    const delivery = named('POST /webhooks/w/{webhookUid}', (span) => span.attributes['webhook.delivery.id'] === deliveryId);
    expect(delivery.kind).toBe(SERVER);
    expect(delivery.parentSpanId).toBeUndefined();
    expect(delivery.attributes).toMatchObject({
      'http.route': '/webhooks/w/{webhookUid}',
      'http.response.status_code': 202,
      'webhook.delivery.label': 'Accepted',
    });
    expect(delivery.events).toEqual(['resolved', 'verified']);

    const match = named('automation match', (span) => span.attributes['webhook.delivery.id'] === deliveryId);
    const queued = named('run queued', (span) => span.attributes['run.id'] === runId);
    const claimed = named('run claimed', (span) => span.attributes['run.id'] === runId);
    const execution = named('run execution', (span) => span.attributes['run.id'] === runId);
    const agent = named('run agent');
    const command = named('agent command');
    const chain = [delivery, match, queued, claimed, execution, agent, command];
    for (const [i, span] of chain.entries()) {
      expect(span.traceId, span.name).toBe(delivery.traceId);
      if (i > 0) expect(span.parentSpanId, `${span.name}'s parent`).toBe(chain[i - 1]!.spanId);
    }
    expect(delivery.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(match.attributes['automation.matched']).toHaveLength(1);
    expect(execution.attributes['run.state']).toBe('SUCCEEDED');
    expect(command.attributes['process.exit.code']).toBe(0);
    // The run's own steps hang below its execution.
    expect(named('run image').parentSpanId).toBe(execution.spanId);
    expect(named('run setup').parentSpanId).toBe(execution.spanId);
  });

  it("the run's log lines carry the execution span's trace_id and span_id", () => {
    const execution = named('run execution', (span) => span.attributes['run.id'] === runId);
    const succeeded = lines.find((line) => line.msg === 'run succeeded' && line.runId === runId);
    expect(succeeded).toMatchObject({ trace_id: execution.traceId, span_id: execution.spanId });
  });

  it('a REST request is a span named by its route template; its problem trace_id is the trace id', () => {
    expect(problem.status).toBe(404);
    const request = named('GET /api/v1/agent/runs/{runId}', (span) => span.attributes['http.response.status_code'] === 404);
    expect(request.kind).toBe(SERVER);
    expect(request.attributes['http.route']).toBe('/api/v1/agent/runs/{runId}');
    expect(problem.trace_id).toBe(request.traceId);
    expect(problem.requestId).toBe(request.traceId);
    const requestLine = lines.find((line) => line.msg === 'request' && line.request_id === request.traceId);
    expect(requestLine).toMatchObject({ trace_id: request.traceId, span_id: request.spanId, status: 404 });
  });
});

describe.each(testDatabases())('traces of a built-in agent run created through the API (%s)', (kind) => {
  it('POST /agent/runs → run queued → run claimed → run execution → its model calls and its tool call', async () => {
    const receiver = await startOtlpReceiver();
    const model = await FakeModel.start();
    try {
      model.reply(toolCalls([{ id: 'call_bash', name: 'Bash', arguments: { command: 'echo traced' } }]), text('Done.'));
      const server = await startTestServer({
        database: kind,
        env: {
          RUNNER: 'model',
          MODEL_BASE_URL: model.url,
          MODEL_API_KEY: 'sk-operator',
          DEFAULT_MODEL_ID: 'gpt-test',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        },
      });
      try {
        const client = apiClient(server.apiUrl, server.adminKey);
        const created = await client.post('/agent/runs', { prompt: 'Say hello.' });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        await waitForRunState(client, created.body.run_id, ['SUCCEEDED']);
      } finally {
        await server.close();
      }
      const spans = receiver.spans;
      const request = only(spans, 'POST /api/v1/agent/runs');
      const queued = only(spans, 'run queued');
      const claimed = only(spans, 'run claimed');
      const execution = only(spans, 'run execution');
      for (const [parent, child] of [
        [request, queued],
        [queued, claimed],
        [claimed, execution],
      ] as const) {
        expect(child.parentSpanId, `${child.name}'s parent`).toBe(parent.spanId);
        expect(child.traceId).toBe(request.traceId);
      }
      const modelCalls = spans.filter((span) => span.name === 'model call openai');
      expect(modelCalls).toHaveLength(2);
      for (const call of modelCalls) {
        expect(call).toMatchObject({ kind: CLIENT, traceId: request.traceId, parentSpanId: execution.spanId });
        expect(call.attributes).toMatchObject({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-test', 'http.response.status_code': 200 });
      }
      const agent = only(spans, 'run agent');
      const tool = only(spans, 'tool call');
      expect(tool).toMatchObject({
        traceId: request.traceId,
        parentSpanId: agent.spanId,
        attributes: { 'gen_ai.tool.name': 'Bash', 'gen_ai.tool.call.id': 'call_bash' },
      });
    } finally {
      await model.close();
      await receiver.close();
    }
  }, 60_000);
});

describe.each(testDatabases())('traces of outbound notifications (%s)', (kind) => {
  it('each attempt is a CLIENT span of its own trace naming the run, the event and the answer; no traceparent leaves', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const world = await startNotificationWorld(kind, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
      let runId: string;
      let subscription: string;
      try {
        subscription = (await world.subscribe({ event_types: ['run.state_changed'] })).uid;
        runId = await createRun(world.admin);
        await world.waitForAttempts(subscription, 1);
        expect(world.receiver.received[0]!.headers.traceparent).toBeUndefined();
      } finally {
        await world.close();
      }
      const attempt = only(receiver.spans, 'notification delivery');
      expect(attempt.kind).toBe(CLIENT);
      expect(attempt.parentSpanId).toBeUndefined();
      expect(attempt.attributes).toMatchObject({ 'run.id': runId, 'notification.subscription_id': subscription, 'notification.delivered': true });
      expect(attempt.attributes['http.response.status_code']).toBe(world.receiver.fallback.status);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe('tracing settings (the standard OTEL_* variables)', () => {
  const tracing = (env: Record<string, string>) => loadSettings(env).tracing;

  it('is off unless an OTLP endpoint is named, and when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says so', () => {
    expect(tracing({})).toBeUndefined();
    expect(tracing({ OTEL_SERVICE_NAME: 'svc' })).toBeUndefined();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('takes the traces endpoint, else the base endpoint with /v1/traces, the service name and the sampler', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'agent-runs',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/v1/traces',
        OTEL_SERVICE_NAME: 'runs-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }),
    ).toEqual({ endpoint: 'https://traces.example/otlp/v1/traces', serviceName: 'runs-eu', sampler: 'parentbased_traceidratio', samplerRatio: 0.25 });
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => tracing({ ...base, OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER must be one of/);
    expect(() => tracing({ ...base, OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracing({ ...base, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER must be otlp or none/);
    expect(() => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(SettingsError);
  });
});
