/**
 * The model gateway (docs/decisions.md §The model gateway): the wire protocols coding-agent CLIs speak —
 * OpenAI Chat Completions and Responses, Anthropic Messages, Gemini generateContent — forwarded to the
 * operator's providers with the operator's keys (or a team's own, harness_auth_secrets), byte for byte
 * and streamed as they arrive, metered per run.
 *
 * Nothing listens on the network for it: a sandbox reaches it through its egress proxy, which hands
 * requests for MODEL_GATEWAY_HOST here (engine/egress/proxy.ts); the built-in agent through a private unix
 * socket. Each execution of a run gets its keys from `open()` and loses them at `close()`. Keys and
 * bodies are never logged.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { Agent, fetch as undiciFetch } from 'undici';
import type { ModelProviderName, Settings } from '../../settings';
import type { UsageRecorder } from '../../budgets/usage-recorder';
import { GatewayKeys } from './credentials';
import { UsageMeter } from './metering';
import { downstreamHeaders, gatewayError, matchRoute, presentedKey, upstreamHeaders, type GatewayRoute } from './protocols';
import { activeTraceContext, SpanKind, startSpan, type Context } from '../../telemetry/spans';

/** The reserved name a sandbox's proxy routes to the gateway (never resolved through DNS). */
export const MODEL_GATEWAY_HOST = 'model-gateway.internal';
const GATEWAY_URL = `http://${MODEL_GATEWAY_HOST}`;
/** Larger than any context window's worth of JSON; a bigger request is refused, not buffered. */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export type TeamProviderKeys = Partial<Record<ModelProviderName, string>>;
interface Upstream {
  baseUrl: string;
  apiKey: string | undefined;
}

interface Grant {
  runId: string;
  /** Where the key may be used: the run's own sandboxes (its egress proxies), or only in process (the built-in agent). */
  from: 'sandbox' | 'in-process';
  usage: UsageRecorder;
  upstream(provider: ModelProviderName): Upstream | undefined;
  log: Logger;
  /** The run execution's span, active at `open()`: every model call of the execution is its child. */
  traceContext: Context;
}

export interface ExecutionGatewayOptions {
  runId: string;
  usage: UsageRecorder;
  /** The team's own keys named by the run's harness_auth_secrets, used instead of the operator's for the run's processes. */
  teamKeys: TeamProviderKeys;
  log: Logger;
}

/** One execution's access; `close()` when the execution ends makes both keys stop working at once. */
export interface ExecutionGateway {
  /** For the run's processes (AGENT_COMMAND, harness CLIs): the base URLs and the execution's key. */
  readonly env: Record<string, string>;
  /** The built-in agent's OpenAI-compatible client: its own key, MODEL_BASE_URL's provider, in process. */
  readonly client: { baseUrl: string; apiKey: string; fetch: typeof globalThis.fetch };
  close(): void;
}

/** The gateway as one run's egress proxy serves it: only that run's sandbox keys work through it. */
export interface GatewayEntrance {
  readonly host: string;
  /** Serves one request (the egress proxy's absolute-form `http://model-gateway.internal/…`). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Serves a connection (a CONNECT tunnel to the gateway's host) as HTTP/1.1; `head` is what was read past the CONNECT. */
  accept(socket: Duplex, head: Buffer): void;
}

export interface ModelGateway {
  entranceFor(runId: string): GatewayEntrance;
  open(options: ExecutionGatewayOptions): ExecutionGateway;
  close(): Promise<void>;
}

function answer(res: http.ServerResponse, error: { status: number; body: string }): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(error.body) }).end(error.body);
}

/** The request body, or undefined past MAX_REQUEST_BYTES. */
async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

type PreparedBody = { ok: true; body: Buffer; model: string | undefined } | { ok: false; message: string };

/**
 * The body as forwarded: unchanged, except that a streamed Chat Completion always asks for its usage
 * (`stream_options.include_usage`), without which it could not be counted.
 */
function prepareBody(route: GatewayRoute, body: Buffer): PreparedBody {
  if (body.length === 0) return { ok: true, body, model: route.model };
  let json: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, message: 'the request body must be a JSON object' };
    json = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, message: 'the request body is not JSON' };
  }
  const model = route.model ?? (typeof json.model === 'string' ? json.model : undefined);
  const options = json.stream_options as { include_usage?: unknown } | undefined;
  if (route.protocol === 'chat' && json.stream === true && options?.include_usage !== true) {
    json.stream_options = { ...(options && typeof options === 'object' ? options : {}), include_usage: true };
    return { ok: true, body: Buffer.from(JSON.stringify(json)), model };
  }
  return { ok: true, body, model };
}

/** A refusal the budget check means (a run status message), as opposed to a failure of the check itself. */
function refusalMessage(err: unknown): string | undefined {
  const message = (err as { statusMessage?: { message?: unknown } } | null)?.statusMessage?.message;
  return typeof message === 'string' ? message : undefined;
}

export function createModelGateway(settings: Pick<Settings, 'modelProviders' | 'modelBaseUrl' | 'modelApiKey'>, log: Logger): ModelGateway {
  const keys = new GatewayKeys<Grant>();
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  // The run whose sandbox a tunnelled connection comes from; the unix socket's connections have none.
  const tunnelRuns = new WeakMap<object, string>();
  const server = http.createServer((req, res) => handle(req, res, tunnelRuns.get(req.socket)));
  server.on('clientError', (_err, socket) => socket.destroy());
  let socketDir: string | undefined;
  let listening: Promise<Agent> | undefined;

  /** The built-in agent's way in: the gateway's server on a unix socket in a private directory, opened on first use. */
  function inProcessDispatcher(): Promise<Agent> {
    listening ??= new Promise<Agent>((resolve, reject) => {
      socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-gateway-'));
      const socketPath = path.join(socketDir, 'gateway.sock');
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve(new Agent({ connect: { socketPath } }));
      });
    });
    return listening;
  }
  const inProcessFetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: Parameters<typeof globalThis.fetch>[1]) => {
    const dispatcher = await inProcessDispatcher();
    const response = await undiciFetch(input as string, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  }) as typeof globalThis.fetch;

  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: GatewayRoute,
    grant: Grant,
    upstream: Upstream,
    body: Buffer,
    model: string | undefined,
    search: string,
  ) {
    const target = new URL(`${upstream.baseUrl}${route.upstreamPath}${search}`);
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: req.method,
      headers: upstreamHeaders(route.provider, req.headers, upstream.apiKey, target.host, body.length),
      agent: agents[secure ? 'https:' : 'http:'],
    });
    let meter: UsageMeter | undefined;
    let recorded = false;
    const span = startSpan(
      `model call ${route.provider}`,
      { 'gen_ai.system': route.provider, 'gen_ai.request.model': model ?? '', 'url.path': route.upstreamPath },
      SpanKind.CLIENT,
      grant.traceContext,
    );
    const record = () => {
      if (recorded) return;
      recorded = true;
      span.setAttribute('http.response.status_code', res.statusCode);
      span.end();
      const spent = meter?.finish();
      grant.log.debug({ provider: route.provider, path: route.upstreamPath, model, status: res.statusCode, usage: spent }, 'model gateway request');
      if (spent) {
        grant.usage.add(spent, model).catch((err: unknown) => {
          // A budget this call went past: recorded, and the run ends with it (engine/worker.ts).
          if (refusalMessage(err) === undefined) grant.log.warn({ err: (err as Error).message }, 'model gateway usage not recorded');
        });
      }
    };
    request.on('response', (answerStream) => {
      const status = answerStream.statusCode ?? 502;
      res.writeHead(status, downstreamHeaders(answerStream.headers));
      res.flushHeaders();
      // Bytes go out first; the meter reads the same chunks after them.
      answerStream.pipe(res);
      if (status < 300) {
        const streamMeter = new UsageMeter(route.protocol, answerStream.headers['content-type']);
        meter = streamMeter;
        answerStream.on('data', (chunk: Buffer) => streamMeter.feed(chunk));
      }
      answerStream.on('error', () => res.destroy());
      answerStream.on('close', record);
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      answer(
        res,
        gatewayError(route.provider, 'unavailable', `the model gateway could not reach the ${route.provider} provider (${err.code ?? 'connection failed'})`),
      );
    });
    // The caller leaving mid-answer stops the upstream request; what was already answered is still counted.
    res.on('close', () => {
      if (!res.writableFinished) request.destroy();
      record();
    });
    request.end(body);
  }

  /** `sandboxRun`: the run whose egress proxy the request came through; undefined in process. */
  async function serve(req: http.IncomingMessage, res: http.ServerResponse, sandboxRun: string | undefined): Promise<void> {
    // Origin-form (unix socket, CONNECT tunnel) and absolute-form (HTTP_PROXY) alike.
    const url = new URL(req.url ?? '/', GATEWAY_URL);
    const method = req.method ?? '';
    // Claude Code checks that its base URL answers before its first request.
    if (url.pathname === '/' && (method === 'HEAD' || method === 'GET')) return void res.writeHead(200, { 'content-length': 0 }).end();
    const route = matchRoute(method, url.pathname);
    if (!route) {
      return answer(res, gatewayError('openai', 'not_found', `the model gateway serves no ${method} ${url.pathname} (see docs/sandbox.md for its routes)`));
    }
    const found = keys.find(presentedKey(req.headers, url.searchParams));
    // A key works only where it was given: a run's sandbox key through that run's proxies, the agent's in process.
    const grant =
      found && (sandboxRun === undefined ? found.from === 'in-process' : found.from === 'sandbox' && found.runId === sandboxRun) ? found : undefined;
    if (!grant) {
      const message = 'the API key is not a live model gateway key: each execution of a run has its own, which stops working when the execution ends';
      return answer(res, gatewayError(route.provider, 'unauthenticated', message));
    }
    const upstream = grant.upstream(route.provider);
    if (!upstream) {
      const message = `this server has no ${route.provider} provider: the operator sets ${route.provider.toUpperCase()}_API_KEY, or the run names a team secret in config.harness_auth_secrets`;
      return answer(res, gatewayError(route.provider, 'invalid_request', message));
    }
    const raw = await readBody(req);
    if (!raw) return answer(res, gatewayError(route.provider, 'too_large', `the request body is larger than ${MAX_REQUEST_BYTES} bytes`));
    const prepared = prepareBody(route, raw);
    if (!prepared.ok) return answer(res, gatewayError(route.provider, 'invalid_request', prepared.message));
    try {
      await grant.usage.assertWithinBudget();
    } catch (err) {
      const refusal = refusalMessage(err);
      if (refusal === undefined) grant.log.error({ err }, 'model gateway budget check failed');
      return answer(res, gatewayError(route.provider, refusal === undefined ? 'unavailable' : 'budget_exceeded', refusal ?? 'the budget check failed'));
    }
    url.searchParams.delete('key');
    forward(req, res, route, grant, upstream, prepared.body, prepared.model, url.search);
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, sandboxRun: string | undefined): void {
    serve(req, res, sandboxRun).catch((err: unknown) => {
      log.error({ err }, 'model gateway request failed');
      answer(res, gatewayError('openai', 'unavailable', 'the model gateway failed'));
    });
  }

  return {
    entranceFor(runId) {
      return {
        host: MODEL_GATEWAY_HOST,
        handle: (req, res) => handle(req, res, runId),
        accept(socket, head) {
          tunnelRuns.set(socket, runId);
          if (head.length > 0) socket.unshift(head);
          server.emit('connection', socket);
        },
      };
    },
    open(options) {
      const teamOrOperator = (provider: ModelProviderName): Upstream | undefined => {
        const teamKey = options.teamKeys[provider];
        return teamKey ? { baseUrl: settings.modelProviders[provider].teamBaseUrl, apiKey: teamKey } : settings.modelProviders[provider].operator;
      };
      const builtIn = settings.modelBaseUrl ? { baseUrl: settings.modelBaseUrl.replace(/\/+$/, ''), apiKey: settings.modelApiKey } : undefined;
      const grant = { runId: options.runId, usage: options.usage, log: options.log, traceContext: activeTraceContext() };
      const processKey = keys.mint({ ...grant, from: 'sandbox', upstream: teamOrOperator });
      const agentKey = keys.mint({ ...grant, from: 'in-process', upstream: (provider) => (provider === 'openai' ? builtIn : undefined) });
      return {
        env: {
          OPENAI_BASE_URL: `${GATEWAY_URL}/v1`,
          OPENAI_API_KEY: processKey,
          ANTHROPIC_BASE_URL: GATEWAY_URL,
          ANTHROPIC_API_KEY: processKey,
          GOOGLE_GEMINI_BASE_URL: GATEWAY_URL,
          GEMINI_API_KEY: processKey,
          AGENT_MODEL_GATEWAY_URL: GATEWAY_URL,
          AGENT_MODEL_GATEWAY_KEY: processKey,
        },
        client: { baseUrl: `${GATEWAY_URL}/v1`, apiKey: agentKey, fetch: inProcessFetch },
        close() {
          keys.revoke(processKey);
          keys.revoke(agentKey);
        },
      };
    },
    async close() {
      const dispatcher = await listening?.catch(() => undefined);
      await dispatcher?.close();
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      agents['http:'].destroy();
      agents['https:'].destroy();
      if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
