/**
 * OpenAI-compatible Chat Completions client on fetch: one streamed request per `complete()` call
 * (SSE `data:` chunks up to `[DONE]`, tool-call deltas accumulated by index, usage from the final chunk),
 * the per-call timeout, and the retry loop for the provider's 408/409/429/5xx answers and network
 * failures (exponential backoff with jitter, `Retry-After` honoured, bounded attempts).
 */
import type { TokenUsage } from '../runner';

export type ChatContentPart = { type: 'text'; text: string };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
}

export interface ChatResponse {
  content: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  usage?: TokenUsage;
}

/**
 * Why a model call failed, as the run's status message needs it:
 * - `rejected`: the provider refused the request (400/401/403/404/422…) — retrying cannot help;
 * - `rate_limited`: 429 after every attempt; `unavailable`: 5xx, network errors, per-call timeouts or
 *   broken streams after every attempt — both may succeed later;
 * - `aborted`: the caller's signal (cancel, shutdown, run deadline) stopped it.
 */
export type ModelErrorKind = 'rejected' | 'rate_limited' | 'unavailable' | 'aborted';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface RetryPolicy {
  /** Attempts per call, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one ends the retries. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export interface ChatClientOptions {
  /** e.g. `https://api.openai.com/v1`; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

export interface CompleteOptions {
  /** Cancel, shutdown or run deadline: stops the in-flight request and any backoff wait. */
  signal: AbortSignal;
  /** Timeout of one attempt (request and whole streamed answer). */
  timeoutMs: number;
  /** Called before each retry wait (logging). */
  onRetry?: (info: { attempt: number; delayMs: number; error: ModelError }) => void;
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);
const isRetryableStatus = (status: number) => RETRYABLE_STATUS.has(status) || status >= 500;

/** Parses `Retry-After` (delay seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelError('aborted', 'the model call was aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError('aborted', 'the model call was aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class ChatCompletionsClient {
  readonly #url: string;
  readonly #apiKey: string | undefined;
  readonly #retry: RetryPolicy;
  readonly #fetch: typeof fetch;

  constructor(options: ChatClientOptions) {
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.#apiKey = options.apiKey;
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#fetch = options.fetch ?? fetch;
  }

  /** The exact JSON body sent for a request (tests assert it). */
  static body(request: ChatRequest): Record<string, unknown> {
    return {
      model: request.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  async complete(request: ChatRequest, options: CompleteOptions): Promise<ChatResponse> {
    const body = JSON.stringify(ChatCompletionsClient.body(request));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(body, options);
      } catch (err) {
        const error = err instanceof ModelError ? err : new ModelError('unavailable', `model request failed: ${describe(err)}`);
        if (error.kind === 'aborted' || error.kind === 'rejected' || attempt >= this.#retry.maxAttempts) throw error;
        const backoff = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** (attempt - 1));
        const jittered = Math.round(backoff / 2 + Math.random() * (backoff / 2));
        if (error.retryAfterMs !== undefined && error.retryAfterMs > this.#retry.maxRetryAfterMs) throw error;
        const delayMs = error.retryAfterMs ?? jittered;
        options.onRetry?.({ attempt, delayMs, error });
        await abortableSleep(delayMs, options.signal);
      }
    }
  }

  async #attempt(body: string, options: CompleteOptions): Promise<ChatResponse> {
    const { signal, timeoutMs } = options;
    if (signal.aborted) throw new ModelError('aborted', 'the model call was aborted');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
      };
      if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
      const response = await this.#fetch(this.#url, { method: 'POST', headers, body, signal: controller.signal });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        const detail = providerMessage(text);
        const message = `the model provider answered ${response.status}${detail ? `: ${detail}` : ''}`;
        if (!isRetryableStatus(response.status)) throw new ModelError('rejected', message, response.status);
        throw new ModelError(
          response.status === 429 ? 'rate_limited' : 'unavailable',
          message,
          response.status,
          parseRetryAfter(response.headers.get('retry-after')),
        );
      }
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('application/json')) return fromCompletion(await response.json());
      return await readStream(response);
    } catch (err) {
      if (err instanceof ModelError) throw err;
      if (signal.aborted) throw new ModelError('aborted', 'the model call was aborted');
      if (timedOut) throw new ModelError('unavailable', `the model call timed out after ${Math.round(timeoutMs / 1000)} s`);
      throw new ModelError('unavailable', `the model request failed: ${describe(err)}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

/** The provider's error message from an error body (OpenAI shape `{error: {message}}`), kept short. */
function providerMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') message = parsed.error;
    else if (parsed.error && typeof parsed.error.message === 'string') message = parsed.error.message;
    else if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // not JSON: keep the text
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

function toUsage(raw: unknown): TokenUsage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const u = raw as Record<string, unknown>;
  const prompt = typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
  const completion = typeof u.completion_tokens === 'number' ? u.completion_tokens : 0;
  const total = typeof u.total_tokens === 'number' ? u.total_tokens : prompt + completion;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** A provider that ignored `stream: true` and answered one JSON completion. */
function fromCompletion(raw: unknown): ChatResponse {
  const completion = raw as {
    choices?: Array<{ message?: { content?: string | null; tool_calls?: ChatToolCall[] }; finish_reason?: string | null }>;
    usage?: unknown;
  };
  const choice = completion.choices?.[0];
  if (!choice) throw new ModelError('unavailable', 'the model answered without choices');
  const usage = toUsage(completion.usage);
  return {
    content: choice.message?.content ?? '',
    toolCalls: (choice.message?.tool_calls ?? []).map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.function.name, arguments: c.function.arguments ?? '' },
    })),
    finishReason: choice.finish_reason ?? null,
    ...(usage ? { usage } : {}),
  };
}

interface StreamChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: unknown;
  error?: { message?: string; code?: unknown } | string;
}

/** Reads an SSE body: `data:` lines (possibly several per event) until `[DONE]` or the end of the stream. */
async function readStream(response: Response): Promise<ChatResponse> {
  if (!response.body) throw new ModelError('unavailable', 'the model answered without a body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let data: string[] = [];
  let content = '';
  let finishReason: string | null = null;
  let usage: TokenUsage | undefined;
  let done = false;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();

  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(payload) as StreamChunk;
    } catch {
      throw new ModelError('unavailable', 'the model stream sent a chunk that is not JSON');
    }
    if (chunk.error) {
      const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
      throw new ModelError('unavailable', `the model stream reported an error: ${message}`);
    }
    const chunkUsage = toUsage(chunk.usage);
    if (chunkUsage) usage = chunkUsage;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta;
      if (typeof delta?.content === 'string') content += delta.content;
      for (const part of delta?.tool_calls ?? []) {
        const index = part.index ?? 0;
        const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
        calls.set(index, call);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  };

  try {
    while (!done) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += value;
      let newline: number;
      while (!done && (newline = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
        if (line === '') dispatch();
        else if (line.startsWith(':')) continue;
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        // other fields (event:, id:, retry:) carry nothing for chat completions
      }
    }
    if (!done) {
      if (buffer.startsWith('data:')) data.push(buffer.slice(5).replace(/^ /, ''));
      dispatch();
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    else void reader.cancel().catch(() => undefined);
  }
  if (!done && finishReason === null) {
    throw new ModelError('unavailable', 'the model stream ended before the answer was complete');
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, c]) => ({
      id: c.id || `call_${index}`,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  return { content, toolCalls, finishReason, ...(usage ? { usage } : {}) };
}
