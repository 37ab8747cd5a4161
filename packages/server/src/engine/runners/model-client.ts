/**
 * The model provider's Chat Completions API through the official `openai` client (baseURL = MODEL_BASE_URL):
 * one streamed request per attempt, tool-call deltas accumulated by index, usage from the final chunk.
 *
 * The client runs with `maxRetries: 0`; the retry loop stays here because the client's own cannot express
 * the contract's semantics:
 * - its backoff sleep does not listen to the request's AbortSignal, so a cancel during a 30 s Retry-After
 *   would wait it out (here the wait ends with the run's signal);
 * - it honours any Retry-After however long and its backoff is fixed (0.5 s → 8 s); here a Retry-After past
 *   `maxRetryAfterMs` ends the retries and the backoff is the RetryPolicy's;
 * - its `timeout` stops at the response headers and it never retries a failed stream, whereas
 *   model_call_timeout_seconds bounds the whole streamed answer and a timed-out attempt is retried;
 * - it parses every `stream: true` answer as SSE; a provider that answers one JSON completion is read here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { TokenUsage } from '../../runs/contract';

export type ChatContentPart = ChatCompletionContentPartText;
export type ChatMessage = ChatCompletionMessageParam;
export type ChatToolCall = ChatCompletionMessageFunctionToolCall;
export type ChatTool = ChatCompletionFunctionTool;

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
  /** How requests are sent (the model gateway's in-process fetch); default the global fetch. */
  fetch?: typeof globalThis.fetch;
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
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const aborted = () => new ModelError('aborted', 'the model call was aborted');

export class ChatCompletionsClient {
  readonly #openai: OpenAI;
  readonly #retry: RetryPolicy;

  constructor(options: ChatClientOptions) {
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#openai = new OpenAI({
      baseURL: options.baseUrl,
      // Every credential explicit: OPENAI_API_KEY/ORG_ID/PROJECT_ID in the server's environment must not reach MODEL_BASE_URL.
      apiKey: options.apiKey ?? 'none',
      adminAPIKey: null,
      organization: null,
      project: null,
      // Without MODEL_API_KEY the provider gets no Authorization header at all (the client's way to omit it).
      ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      maxRetries: 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      // Failures reach the run's log and status message through ModelError, not the client's console logger.
      logLevel: 'off',
    });
  }

  /**
   * The provider's model ids (`GET <baseUrl>/models`, the OpenAI-compatible list) for listModels; waits at
   * most `timeoutMs` and throws when the provider cannot answer. Entries without a string id are skipped.
   */
  async listModelIds(timeoutMs: number): Promise<string[]> {
    const page = await this.#openai.models.list({ timeout: timeoutMs });
    const data: unknown[] = Array.isArray(page.data) ? page.data : [];
    return data.flatMap((model) => {
      const id = (model as { id?: unknown } | null)?.id;
      return typeof id === 'string' && id !== '' ? [id] : [];
    });
  }

  /** The exact JSON body sent for a request (the fake model in the tests records it). */
  static body(request: ChatRequest): ChatCompletionCreateParamsStreaming {
    return {
      model: request.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  async complete(request: ChatRequest, options: CompleteOptions): Promise<ChatResponse> {
    const body = ChatCompletionsClient.body(request);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(body, options);
      } catch (err) {
        const error = err instanceof ModelError ? err : new ModelError('unavailable', `the model request failed: ${describe(err)}`);
        if (error.kind === 'aborted' || error.kind === 'rejected' || attempt >= this.#retry.maxAttempts) throw error;
        if (error.retryAfterMs !== undefined && error.retryAfterMs > this.#retry.maxRetryAfterMs) throw error;
        const backoff = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = error.retryAfterMs ?? Math.round(backoff / 2 + Math.random() * (backoff / 2));
        options.onRetry?.({ attempt, delayMs, error });
        await sleep(delayMs, undefined, { signal: options.signal }).catch(() => {
          throw aborted();
        });
      }
    }
  }

  /** One attempt; every failure comes out as a ModelError. */
  async #attempt(body: ChatCompletionCreateParamsStreaming, { signal, timeoutMs }: CompleteOptions): Promise<ChatResponse> {
    const attempt = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    try {
      // The client's `timeout` (default 10 min) would otherwise cut a longer model_call_timeout_seconds.
      const { data: stream, response } = await this.#openai.chat.completions.create(body, { signal: attempt, timeout: timeoutMs }).withResponse();
      if (response.headers.get('content-type')?.includes('application/json')) {
        return fromCompletion((await response.json()) as ChatCompletion);
      }
      const answer = await readStream(stream);
      // The client's stream ends quietly when its signal aborts: a cut-off answer must not pass as complete.
      attempt.throwIfAborted();
      return answer;
    } catch (err) {
      if (signal.aborted) throw aborted();
      if (attempt.aborted || err instanceof APIConnectionTimeoutError) {
        throw new ModelError('unavailable', `the model call timed out after ${Math.round(timeoutMs / 1000)} s`);
      }
      if (err instanceof ModelError) throw err;
      if (err instanceof APIConnectionError) throw new ModelError('unavailable', `the model request failed: ${describe(err)}`);
      if (err instanceof APIError && err.status !== undefined) {
        const message = `the model provider answered ${short(err.message)}`;
        // A 429 `insufficient_quota` (out of credit, or the model gateway's budget refusal) does not pass by waiting.
        if (!isRetryableStatus(err.status) || err.code === 'insufficient_quota') throw new ModelError('rejected', message, err.status);
        const retryAfterMs = parseRetryAfter(err.headers?.get('retry-after'));
        throw new ModelError(err.status === 429 ? 'rate_limited' : 'unavailable', message, err.status, retryAfterMs);
      }
      if (err instanceof APIError) throw new ModelError('unavailable', `the model stream reported an error: ${short(err.message)}`);
      throw new ModelError('unavailable', `the model request failed: ${describe(err)}`);
    }
  }
}

/** The error and its causes (`Connection error: fetch failed: connect ECONNREFUSED …`). */
function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message.replace(/\.$/, ''));
  return parts.length > 0 ? parts.join(': ') : String(err);
}

/** A provider message kept to one short line for the status message. */
function short(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Providers may leave out total_tokens (or more). */
function toUsage(raw: Partial<TokenUsage> | null | undefined): TokenUsage | undefined {
  if (!raw) return undefined;
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: raw.total_tokens ?? prompt + completion };
}

const functionCalls = (calls: ChatCompletion.Choice['message']['tool_calls']): ChatToolCall[] =>
  (calls ?? []).filter((c): c is ChatToolCall => c.type === 'function');

/** A provider that ignored `stream: true` and answered one JSON completion. */
function fromCompletion(completion: ChatCompletion): ChatResponse {
  const choice = completion.choices?.[0];
  if (!choice) throw new ModelError('unavailable', 'the model answered without choices');
  const usage = toUsage(completion.usage);
  return {
    content: choice.message?.content ?? '',
    toolCalls: functionCalls(choice.message?.tool_calls),
    finishReason: choice.finish_reason ?? null,
    ...(usage ? { usage } : {}),
  };
}

async function readStream(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatResponse> {
  let content = '';
  let finishReason: string | null = null;
  let usage: TokenUsage | undefined;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of stream) {
    usage = toUsage(chunk.usage) ?? usage;
    for (const choice of chunk.choices ?? []) {
      if (typeof choice.delta?.content === 'string') content += choice.delta.content;
      for (const part of choice.delta?.tool_calls ?? []) {
        const index = part.index ?? 0;
        const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
        calls.set(index, call);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  }
  // The client cannot tell a stream cut before `[DONE]` from a finished one; a missing finish_reason can.
  if (finishReason === null) throw new ModelError('unavailable', 'the model stream ended before the answer was complete');
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, c]) => ({ id: c.id || `call_${index}`, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
  return { content, toolCalls, finishReason, ...(usage ? { usage } : {}) };
}
