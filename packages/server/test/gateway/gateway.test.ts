/**
 * The model gateway as a sandboxed process reaches it: through a real egress proxy on a unix socket
 * (absolute-form HTTP and CONNECT), against the fake providers on loopback. Each protocol is forwarded
 * byte for byte and streamed, with the operator's (or the team's) key instead of the execution's, and
 * metered; wrong, revoked and over-budget keys get each protocol's own error.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPolicy } from '../../src/engine/egress/policy';
import { startEgressProxy, type EgressDenial, type EgressProxy } from '../../src/engine/egress/proxy';
import { createModelGateway, type ExecutionGateway, type ModelGateway } from '../../src/engine/gateway/gateway';
import type { TokenUsage } from '../../src/runs/contract';
import type { UsageRecorder } from '../../src/budgets/usage-recorder';
import { loadSettings } from '../../src/settings';
import { FAKE_USAGE, FakeProviders } from './fake-providers';

const OPERATOR = { openai: 'sk-operator-openai', anthropic: 'sk-ant-operator', gemini: 'AIza-operator' };

class RecordingUsage implements UsageRecorder {
  readonly added: Array<{ usage: TokenUsage; modelId: string | undefined }> = [];
  refusal: string | undefined;
  async add(usage: TokenUsage, modelId?: string) {
    this.added.push({ usage, modelId });
  }
  async assertWithinBudget() {
    if (this.refusal) throw Object.assign(new Error('over budget'), { statusMessage: { message: this.refusal, error_code: 'budget_exceeded' } });
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body as it arrived, one entry per chunk read. */
  chunks: string[];
}

let fake: FakeProviders;
let gateway: ModelGateway;
let proxy: EgressProxy;
let socketPath: string;
let dir: string;
const denials: EgressDenial[] = [];

beforeAll(async () => {
  fake = await FakeProviders.start();
  const settings = loadSettings({ DATABASE_URL: 'sqlite::memory:', ...fake.providerSettings(OPERATOR) });
  gateway = createModelGateway(settings, pino({ level: 'silent' }));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-test-'));
  socketPath = path.join(dir, 'proxy.sock');
  // The policy refuses loopback: only the gateway route can reach the fake provider.
  proxy = await startEgressProxy({
    policy: createEgressPolicy({ network: 'open', allowedHosts: [] }),
    socketPath,
    modelGateway: gateway.entranceFor('run-1'),
    onDenied: (d) => denials.push(d),
  });
});
afterAll(async () => {
  await proxy?.close();
  await gateway?.close();
  await fake?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(teamKeys: Record<string, string> = {}): { access: ExecutionGateway; usage: RecordingUsage } {
  const usage = new RecordingUsage();
  const access = gateway.open({ runId: 'run-1', usage, teamKeys, log: pino({ level: 'silent' }) });
  return { access, usage };
}

function read(res: http.IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => chunks.push(chunk));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: chunks.join(''), chunks }));
    res.on('error', reject);
  });
}

/** An absolute-form request through the proxy, as curl and other HTTP_PROXY clients send plain http. */
function viaProxy(method: string, pathAndQuery: string, headers: Record<string, string>, body?: unknown, through = socketPath): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({
      socketPath: through,
      method,
      path: `http://model-gateway.internal${pathAndQuery}`,
      headers: { host: 'model-gateway.internal', ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
    });
    req.on('response', (res) => void read(res).then(resolve, reject));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The same through a CONNECT tunnel, as Node's proxy agents send even plain http. */
function viaTunnel(method: string, pathAndQuery: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const connect = http.request({ socketPath, method: 'CONNECT', path: 'model-gateway.internal:80' });
    connect.on('connect', (res, socket: net.Socket) => {
      if (res.statusCode !== 200) return reject(new Error(`CONNECT answered ${res.statusCode}`));
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request({
        createConnection: () => socket,
        method,
        path: pathAndQuery,
        headers: { host: 'model-gateway.internal', ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      });
      req.on('response', (answer) => void read(answer).then(resolve, reject));
      req.on('error', reject);
      req.end(payload);
    });
    connect.on('error', reject);
    connect.end();
  });
}

const last = () => fake.requests[fake.requests.length - 1]!;

describe('the model gateway through the egress proxy', () => {
  it('streams Chat Completions byte for byte with the operator key, asks for usage and counts it', async () => {
    const { access, usage } = open();
    const key = access.env.OPENAI_API_KEY!;
    const answer = await viaProxy(
      'POST',
      '/v1/chat/completions',
      { authorization: `Bearer ${key}` },
      { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.chunks.length).toBeGreaterThan(1); // streamed as written, not buffered
    expect(answer.body).toContain('"content":"Hello"');
    expect(answer.body.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(answer.headers['openai-organization']).toBeUndefined();
    const seen = last();
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe(`Bearer ${OPERATOR.openai}`);
    expect(seen.headers['accept-encoding']).toBe('identity');
    expect(seen.body.stream_options).toEqual({ include_usage: true });
    expect(seen.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(usage.added).toEqual([{ usage: FAKE_USAGE.chat, modelId: 'gpt-test' }]);
    access.close();
  });

  it('forwards a non-streamed Chat Completion unchanged and counts its usage', async () => {
    const { access, usage } = open();
    const sent = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5 };
    const answer = await viaProxy('POST', '/v1/chat/completions', { authorization: `Bearer ${access.env.OPENAI_API_KEY}` }, sent);
    expect(JSON.parse(answer.body).choices[0].message.content).toBe('Hello there');
    expect(last().body).toEqual(sent);
    expect(usage.added.map((a) => a.usage)).toEqual([FAKE_USAGE.chat]);
    access.close();
  });

  it('streams the Responses API (Codex) and counts response.completed usage', async () => {
    const { access, usage } = open();
    const answer = await viaProxy(
      'POST',
      '/v1/responses',
      { authorization: `Bearer ${access.env.OPENAI_API_KEY}` },
      { model: 'gpt-5-codex', stream: true, input: 'hi' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('event: response.completed');
    expect(last().path).toBe('/v1/responses');
    expect(last().body).toEqual({ model: 'gpt-5-codex', stream: true, input: 'hi' });
    expect(usage.added).toEqual([{ usage: FAKE_USAGE.responses, modelId: 'gpt-5-codex' }]);
    access.close();
  });

  it('streams Anthropic Messages through a CONNECT tunnel with x-api-key swapped, counting message_start + message_delta', async () => {
    const { access, usage } = open();
    const headers = { 'x-api-key': access.env.ANTHROPIC_API_KEY!, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'test-beta' };
    const answer = await viaTunnel('POST', '/v1/messages', headers, {
      model: 'claude-test',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('event: message_delta');
    const seen = last();
    expect(seen.path).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe(OPERATOR.anthropic);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.headers['anthropic-beta']).toBe('test-beta');
    expect(usage.added).toEqual([{ usage: FAKE_USAGE.messages, modelId: 'claude-test' }]);
    access.close();
  });

  it('answers HEAD / (Claude Code probes its base URL) without a key', async () => {
    const answer = await viaProxy('HEAD', '/', {});
    expect(answer.status).toBe(200);
  });

  it('streams Gemini with ?key= (dropped upstream), counts usageMetadata, and reads the JSON-array stream too', async () => {
    const { access, usage } = open();
    const key = access.env.GEMINI_API_KEY!;
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const streamed = await viaProxy('POST', `/v1beta/models/gemini-test:streamGenerateContent?alt=sse&key=${key}`, {}, body);
    expect(streamed.status).toBe(200);
    expect(last().path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(last().headers['x-goog-api-key']).toBe(OPERATOR.gemini);
    const array = await viaProxy('POST', '/v1beta/models/gemini-test:streamGenerateContent', { 'x-goog-api-key': key }, body);
    expect(JSON.parse(array.body)).toHaveLength(2);
    const single = await viaProxy('POST', '/v1beta/models/gemini-test:generateContent', { 'x-goog-api-key': key }, body);
    expect(single.status).toBe(200);
    expect(usage.added).toEqual([
      { usage: FAKE_USAGE.gemini, modelId: 'gemini-test' },
      { usage: FAKE_USAGE.gemini, modelId: 'gemini-test' },
      { usage: FAKE_USAGE.gemini, modelId: 'gemini-test' },
    ]);
    access.close();
  });

  it('uses the team key of harness_auth_secrets for the run processes, the operator key for the others', async () => {
    const { access } = open({ anthropic: 'sk-ant-team' });
    await viaProxy('POST', '/v1/messages', { 'x-api-key': access.env.ANTHROPIC_API_KEY! }, { model: 'claude-test', max_tokens: 8, messages: [] });
    expect(last().headers['x-api-key']).toBe('sk-ant-team');
    await viaProxy('POST', '/v1/chat/completions', { authorization: `Bearer ${access.env.OPENAI_API_KEY}` }, { model: 'gpt-test', messages: [] });
    expect(last().headers.authorization).toBe(`Bearer ${OPERATOR.openai}`);
    access.close();
  });

  it('refuses a wrong key and a key whose execution ended with 401 in the protocol shape, forwarding nothing', async () => {
    const { access } = open();
    const key = access.env.OPENAI_API_KEY!;
    const before = fake.requests.length;
    const wrong = await viaProxy('POST', '/v1/chat/completions', { authorization: `Bearer ${key.slice(0, -1)}x` }, { model: 'm', messages: [] });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error).toMatchObject({ type: 'invalid_api_key' });
    access.close();
    const expired = await viaProxy('POST', '/v1/messages', { 'x-api-key': key }, { model: 'm', max_tokens: 1, messages: [] });
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const gemini = await viaProxy('POST', `/v1beta/models/g:generateContent?key=${key}`, {}, {});
    expect(JSON.parse(gemini.body)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    expect(fake.requests.length).toBe(before);
  });

  it("refuses a run's key through another run's proxy and the built-in agent's key from a sandbox", async () => {
    const { access } = open();
    const otherSocket = path.join(dir, 'other-run.sock');
    const other = await startEgressProxy({
      policy: createEgressPolicy({ network: 'open', allowedHosts: [] }),
      socketPath: otherSocket,
      modelGateway: gateway.entranceFor('run-2'),
    });
    try {
      const before = fake.requests.length;
      const elsewhere = await viaProxy(
        'POST',
        '/v1/chat/completions',
        { authorization: `Bearer ${access.env.OPENAI_API_KEY}` },
        { model: 'm', messages: [] },
        otherSocket,
      );
      expect(elsewhere.status).toBe(401);
      const agentKey = await viaProxy('POST', '/v1/chat/completions', { authorization: `Bearer ${access.client.apiKey}` }, { model: 'm', messages: [] });
      expect(agentKey.status).toBe(401);
      expect(fake.requests.length).toBe(before);
      const own = await viaProxy('POST', '/v1/chat/completions', { authorization: `Bearer ${access.env.OPENAI_API_KEY}` }, { model: 'm', messages: [] });
      expect(own.status).toBe(200);
    } finally {
      await other.close();
      access.close();
    }
  });

  it('answers a budget refusal with each protocol quota error before forwarding', async () => {
    const { access, usage } = open();
    usage.refusal = 'The run used its max_tokens (1000).';
    const before = fake.requests.length;
    const openai = await viaProxy('POST', '/v1/responses', { authorization: `Bearer ${access.env.OPENAI_API_KEY}` }, { model: 'm', input: 'x' });
    expect(openai.status).toBe(429);
    expect(JSON.parse(openai.body).error).toMatchObject({ type: 'insufficient_quota', message: usage.refusal });
    const anthropic = await viaProxy('POST', '/v1/messages', { 'x-api-key': access.env.ANTHROPIC_API_KEY! }, { model: 'm', max_tokens: 1, messages: [] });
    expect(anthropic.status).toBe(402);
    expect(JSON.parse(anthropic.body).error.type).toBe('billing_error');
    const gemini = await viaProxy(
      'POST',
      '/v1beta/models/gemini-test:streamGenerateContent?alt=sse',
      { 'x-goog-api-key': access.env.GEMINI_API_KEY! },
      { contents: [] },
    );
    expect(gemini.status).toBe(429);
    // The shape Gemini CLI takes as final (a per-day quota) rather than retrying for minutes.
    expect(JSON.parse(gemini.body).error).toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
      message: usage.refusal,
      details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: expect.stringContaining('PerDay') }] }],
    });
    expect(fake.requests.length).toBe(before);
    access.close();
  });

  it('names unknown routes and malformed bodies, and never lets the proxy reach loopback otherwise', async () => {
    const { access } = open();
    const unknown = await viaProxy('POST', '/v1/embeddings', { authorization: `Bearer ${access.env.OPENAI_API_KEY}` }, {});
    expect(unknown.status).toBe(404);
    const bad = await new Promise<Answer>((resolve, reject) => {
      const req = http.request({
        socketPath,
        method: 'POST',
        path: 'http://model-gateway.internal/v1/chat/completions',
        headers: { authorization: `Bearer ${access.env.OPENAI_API_KEY}` },
      });
      req.on('response', (res) => void read(res).then(resolve, reject));
      req.end('{not json');
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toContain('not JSON');
    const direct = await viaProxy('GET', '/', {}).then(
      () =>
        new Promise<Answer>((resolve, reject) => {
          const req = http.request({ socketPath, method: 'GET', path: `${fake.url}/v1/models` });
          req.on('response', (res) => void read(res).then(resolve, reject));
          req.end();
        }),
    );
    expect(direct.status).toBe(403);
    expect(denials.some((d) => d.host === '127.0.0.1')).toBe(true);
    access.close();
  });
});

describe('the gateway providers (settings)', () => {
  it('serves OpenAI-compatible traffic from MODEL_BASE_URL when OPENAI_* are unset, and sends team keys only to the public API', () => {
    const { modelProviders } = loadSettings({ DATABASE_URL: 'sqlite::memory:', MODEL_BASE_URL: 'http://127.0.0.1:11434/v1/', MODEL_API_KEY: 'sk-model' });
    expect(modelProviders.openai).toEqual({ operator: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-model' }, teamBaseUrl: 'https://api.openai.com/v1' });
    expect(modelProviders.anthropic).toEqual({ operator: undefined, teamBaseUrl: 'https://api.anthropic.com' });
    const own = loadSettings({ DATABASE_URL: 'sqlite::memory:', MODEL_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'sk-openai' }).modelProviders
      .openai;
    expect(own).toEqual({ operator: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai' }, teamBaseUrl: 'https://api.openai.com/v1' });
    expect(() => loadSettings({ DATABASE_URL: 'sqlite::memory:', ANTHROPIC_BASE_URL: 'api.anthropic.com' })).toThrow(/ANTHROPIC_BASE_URL must be an http/);
  });

  it('answers 400 naming the setting for a provider the operator did not configure', async () => {
    const bare = createModelGateway(loadSettings({ DATABASE_URL: 'sqlite::memory:', MODEL_BASE_URL: `${fake.url}/v1` }), pino({ level: 'silent' }));
    const otherSocket = path.join(dir, 'bare.sock');
    const other = await startEgressProxy({
      policy: createEgressPolicy({ network: 'open', allowedHosts: [] }),
      socketPath: otherSocket,
      modelGateway: bare.entranceFor('run-1'),
    });
    const access = bare.open({ runId: 'run-1', usage: new RecordingUsage(), teamKeys: {}, log: pino({ level: 'silent' }) });
    try {
      const answer = await viaProxy(
        'POST',
        '/v1/messages',
        { 'x-api-key': access.env.ANTHROPIC_API_KEY! },
        { model: 'm', max_tokens: 1, messages: [] },
        otherSocket,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.message).toContain('ANTHROPIC_API_KEY');
    } finally {
      access.close();
      await other.close();
      await bare.close();
    }
  });
});
