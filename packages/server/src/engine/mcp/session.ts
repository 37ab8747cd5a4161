/**
 * The MCP servers of one run (AmbientAgentConfig `mcp_servers`), through the official TypeScript SDK:
 * stdio (`{command, args, env}`, started in the run's sandbox) or streamable HTTP (`{url, headers}`,
 * requested under the run's egress policy). `McpSession.connect` starts every
 * server at once with a time limit and lists its tools; if any server fails, the ones already up are
 * closed and an `McpConnectError` names the server — the run fails instead of hanging. `close()` ends
 * every connection (stdio servers are stopped) and is safe to call more than once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';
import type { McpServerConfig } from '../../runs/contract';
import type { RunSandbox } from '../sandbox';
import { toolFunctionName, uniqueName } from './names';
import { SandboxStdioTransport } from './sandbox-stdio-transport';

export interface McpTool {
  server: string;
  /** The tool's own name on its server (what the conversation records). */
  name: string;
  /** The function name the model sees: `<server>__<tool>`, sanitised and unique. */
  functionName: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpCallResult {
  /** The tool reported an error (`isError`), or the call failed (timeout, connection lost). */
  isError: boolean;
  /** Text for the model and the `action_result` output. */
  text: string;
}

export class McpConnectError extends Error {
  constructor(
    readonly server: string,
    message: string,
    /** True when trying again later may work (network error or timeout reaching an HTTP server). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'McpConnectError';
  }
}

export interface McpConnectOptions {
  /** Where stdio servers run and HTTP servers are requested from. */
  sandbox: RunSandbox;
  /** Wall-time limit of a stdio server process. */
  processTimeoutMs: number;
  /** Extra environment of stdio servers (the run's cloud environment), under each server's own `env`. */
  env: Record<string, string>;
  signal: AbortSignal;
  connectTimeoutMs: number;
  log: Logger;
  clientInfo?: { name: string; version: string };
}

interface Connection {
  server: string;
  client: Client;
  transport: Transport;
  stderrTail: () => string;
}

const STDERR_TAIL_CHARS = 2_000;
/** A connect error reaches the run's status message: short, and never a body an HTTP server answered. */
const ERROR_CHARS = 300;

const isStdio = (config: McpServerConfig): config is Extract<McpServerConfig, { command: string }> =>
  typeof (config as { command?: unknown }).command === 'string';

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error && !err.message.includes(cause.message) ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

/** `describe` for a status message: the SDK puts an HTTP error's response body after `(HTTP nnn):`. */
function describeBriefly(err: unknown): string {
  const text = describe(err).replace(/\(HTTP (\d{3})\):[\s\S]*$/, '(HTTP $1)');
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
}

/** Rejects when `signal` aborts or `ms` pass, whichever first; settles with `promise` otherwise. */
function withDeadline<T>(promise: Promise<T>, ms: number, signal: AbortSignal, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineError(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
    const onAbort = () => reject(new AbortedError('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}

class DeadlineError extends Error {}
export class AbortedError extends Error {}

export class McpSession {
  readonly tools: McpTool[];
  readonly #connections: Connection[];
  readonly #byFunction: Map<string, { tool: McpTool; connection: Connection }>;
  #closing: Promise<void> | undefined;

  private constructor(connections: Connection[], tools: McpTool[]) {
    this.#connections = connections;
    this.tools = tools;
    this.#byFunction = new Map(tools.map((tool) => [tool.functionName, { tool, connection: connections.find((c) => c.server === tool.server)! }]));
  }

  static empty(): McpSession {
    return new McpSession([], []);
  }

  /** Connects every server and lists its tools; throws McpConnectError (or AbortedError on cancel). */
  static async connect(servers: Record<string, McpServerConfig>, options: McpConnectOptions): Promise<McpSession> {
    const names = Object.keys(servers);
    if (names.length === 0) return McpSession.empty();
    const started: Connection[] = [];
    // The first failure stops the other connection attempts: the run fails either way.
    const attempt = new AbortController();
    const onAbort = () => attempt.abort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    const scoped = { ...options, signal: attempt.signal };
    let failure = -1;
    const results = await Promise.allSettled(
      names.map(async (server, index) => {
        try {
          const connection = await openConnection(server, servers[server] as McpServerConfig, scoped, started);
          const tools = await withDeadline(listAllTools(connection.client, scoped), options.connectTimeoutMs, scoped.signal, 'listing tools');
          return { connection, tools };
        } catch (err) {
          if (failure < 0 && !attempt.signal.aborted) failure = index;
          attempt.abort();
          throw err;
        }
      }),
    ).finally(() => options.signal.removeEventListener('abort', onAbort));
    if (failure >= 0 || options.signal.aborted) {
      await Promise.allSettled(started.map((c) => closeConnection(c, options.log)));
      if (options.signal.aborted || failure < 0) throw new AbortedError('aborted');
      const reason = (results[failure] as PromiseRejectedResult).reason as unknown;
      const server = names[failure] as string;
      const config = servers[server] as McpServerConfig;
      const connection = started.find((c) => c.server === server);
      const stderr = connection?.stderrTail().trim();
      const retryable =
        !isStdio(config) && (reason instanceof DeadlineError || /fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET/i.test(describe(reason)));
      throw new McpConnectError(
        server,
        `MCP server "${server}" could not be started: ${describeBriefly(reason)}${stderr ? ` — stderr: ${stderr.slice(-ERROR_CHARS)}` : ''}`,
        retryable,
      );
    }
    const taken = new Set<string>();
    const tools: McpTool[] = [];
    for (const result of results) {
      const { connection, tools: listed } = (result as PromiseFulfilledResult<{ connection: Connection; tools: ListedTool[] }>).value;
      for (const t of listed) {
        tools.push({
          server: connection.server,
          name: t.name,
          functionName: uniqueName(toolFunctionName(connection.server, t.name), taken),
          ...(t.description ? { description: t.description } : {}),
          inputSchema: t.inputSchema,
        });
      }
    }
    return new McpSession(started, tools);
  }

  find(functionName: string): McpTool | undefined {
    return this.#byFunction.get(functionName)?.tool;
  }

  /** Runs a tool. Tool errors and failed calls come back as `isError`; cancellation throws AbortedError. */
  async call(functionName: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<McpCallResult> {
    const entry = this.#byFunction.get(functionName);
    if (!entry) return { isError: true, text: `unknown tool ${functionName}` };
    if (options.signal.aborted) throw new AbortedError('aborted');
    try {
      const result = await entry.connection.client.callTool({ name: entry.tool.name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
      });
      return { isError: result.isError === true, text: resultText(result) };
    } catch (err) {
      if (options.signal.aborted) throw new AbortedError('aborted');
      return { isError: true, text: `the tool call failed: ${describe(err)}` };
    }
  }

  close(log?: Logger): Promise<void> {
    this.#closing ??= Promise.allSettled(this.#connections.map((c) => closeConnection(c, log))).then(() => undefined);
    return this.#closing;
  }
}

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

async function openConnection(server: string, config: McpServerConfig, options: McpConnectOptions, started: Connection[]): Promise<Connection> {
  let stderr = '';
  let transport: Transport;
  if (isStdio(config)) {
    transport = new SandboxStdioTransport(options.sandbox, config, options.env, options.processTimeoutMs, (chunk) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
  } else {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error(`"${config.url}" is not a URL`);
    }
    transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers ?? {} }, fetch: options.sandbox.fetch });
  }
  const client = new Client(options.clientInfo ?? { name: 'agent-runs', version: '0.1.0' });
  const connection: Connection = { server, client, transport, stderrTail: () => stderr };
  started.push(connection);
  client.onerror = (err) => options.log.debug({ server, err: describe(err) }, 'MCP connection error');
  await withDeadline(
    client.connect(transport, { signal: options.signal, timeout: options.connectTimeoutMs }),
    options.connectTimeoutMs,
    options.signal,
    'connecting',
  );
  return connection;
}

async function listAllTools(client: Client, options: McpConnectOptions): Promise<ListedTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, {
      signal: options.signal,
      timeout: options.connectTimeoutMs,
    });
    for (const t of page.tools) {
      tools.push({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema as Record<string, unknown>,
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function closeConnection(connection: Connection, log?: Logger): Promise<void> {
  try {
    if (connection.transport instanceof StreamableHTTPClientTransport && connection.transport.sessionId) {
      // Tell the server the session is over; never let a slow server hold the run open.
      await Promise.race([connection.transport.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    }
    await connection.client.close();
  } catch (err) {
    log?.debug({ server: connection.server, err: describe(err) }, 'closing MCP connection failed');
  }
}

type CallToolContent = { type: string; text?: string; mimeType?: string; uri?: string; resource?: { uri?: string; text?: string } };

/** Flattens an MCP CallToolResult into text for the model. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as CallToolContent[]) : [];
  const parts = content.map((item) => {
    switch (item.type) {
      case 'text':
        return item.text ?? '';
      case 'resource':
        return item.resource?.text ?? `[resource ${item.resource?.uri ?? ''}]`;
      case 'resource_link':
        return `[resource link ${item.uri ?? ''}]`;
      default:
        return `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ''} omitted]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (parts.length === 0 && 'toolResult' in result) return JSON.stringify(result.toolResult);
  return parts.join('\n');
}
