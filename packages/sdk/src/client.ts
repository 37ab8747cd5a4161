import * as OpenAPIFetch from 'openapi-fetch';
import type { Client as OpenAPIFetchClient, ClientPathsWithMethod, MaybeOptionalInit, MethodResponse } from 'openapi-fetch';

import type { paths } from '@agent-runs/contract';
import { APIPromise } from './core/api-promise';
import * as Errors from './core/error';
import { PagePromise } from './core/pagination';
import { readEnv } from './internal/env';
import { headersRecord } from './internal/headers';
import { type LogLevel, type Logger, isLogLevel, levelLogger } from './internal/log';
import type { APIResponseProps } from './internal/parse';
import type { FinalRequestOptions, GenericRequestOptions, HTTPMethod, RequestOptions } from './internal/request-options';
import { retryDelayMs, shouldRetryResponse } from './internal/retry';
import { PreparedRequest } from './internal/prepared-request';
import { anySignal, isAbortError, sleep } from './internal/signals';
import { uuid4 } from './internal/uuid';
import { VERSION } from './version';
import { Agent } from './resources/agent/agent';
import { Factories } from './resources/factories/factories';
import { Secrets } from './resources/secrets';
import { Budget, Usage } from './resources/budgets';
import { APIKeys } from './resources/api-keys';
import { AuditEvents } from './resources/audit-events';
import { Notifications } from './resources/notifications/notifications';

const { createQuerySerializer, defaultPathSerializer } = OpenAPIFetch;

// In the CommonJS build the default import of openapi-fetch is its whole CJS exports object (Node's
// interop rule); take `createClient` from wherever this build finds it.
const createClient: typeof OpenAPIFetch.default =
  (OpenAPIFetch.default as unknown as { default?: typeof OpenAPIFetch.default }).default ?? OpenAPIFetch.default;

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Bearer API key. Default: `AGENT_RUNS_API_KEY`. */
  apiKey?: string | undefined;
  /** REST root, ending in `/api/v1`. Default: `AGENT_RUNS_BASE_URL`, else `http://localhost:8080/api/v1`. */
  baseURL?: string | null | undefined;
  /** Per-attempt timeout in ms, until response headers arrive. Default 60 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt of a retryable failure. Default 2. */
  maxRetries?: number | undefined;
  /** The fetch to send requests with. Default `globalThis.fetch`. */
  fetch?: Fetch | undefined;
  /** Headers sent with every request; `null` removes one the SDK sets. */
  defaultHeaders?: Record<string, string | null | undefined> | undefined;
  /** Default: `AGENT_RUNS_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. Default `console`. */
  logger?: Logger | undefined;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080/api/v1';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

type PathsFor<M extends HTTPMethod> = ClientPathsWithMethod<OpenAPIFetchClient<paths>, M>;
/** `{ params?: { path?, query? }, body? }` of one operation, as openapi-fetch types it. */
export type OperationInit<M extends HTTPMethod, P extends PathsFor<M>> = MaybeOptionalInit<paths[P], M>;
/** The success body of one operation. */
export type OperationData<M extends HTTPMethod, P extends PathsFor<M>> = MethodResponse<OpenAPIFetchClient<paths>, M, P>;

type ListItem<T> = T extends ReadonlyArray<infer Item> ? Item : never;

/** The part of openapi-fetch's client the request path uses, with the path left untyped. */
interface UntypedFetchClient {
  request(method: string, url: string, init: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

/** Client of the Agent Runs REST API. */
export class AgentRuns {
  apiKey: string;
  baseURL: string;
  timeout: number;
  maxRetries: number;
  logLevel: LogLevel;

  /**
   * The underlying openapi-fetch client, typed from the spec (`client.http.GET('/agent/runs/{runId}', …)`).
   * Requests made through it get the same auth, retries and timeouts; `client.http.use(middleware)` adds
   * openapi-fetch middleware, which sees each logical request once (retries happen beneath it).
   */
  readonly http: OpenAPIFetchClient<paths>;

  protected readonly _options: ClientOptions;
  private readonly fetch: Fetch;
  /** Set only when info (`log`) or debug (`debug`) lines are wanted: messages are not even built otherwise. */
  private readonly log: Logger | undefined;
  private readonly debug: Logger | undefined;

  constructor({ apiKey = readEnv('AGENT_RUNS_API_KEY'), baseURL = readEnv('AGENT_RUNS_BASE_URL'), ...opts }: ClientOptions = {}) {
    if (apiKey === undefined || apiKey === '') {
      throw new Errors.AgentRunsError('Missing credentials: pass `apiKey` or set the AGENT_RUNS_API_KEY environment variable.');
    }
    this._options = { ...opts, apiKey, baseURL: baseURL || DEFAULT_BASE_URL };
    this.apiKey = apiKey;
    this.baseURL = (baseURL || DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeout = validateTimeout(opts.timeout ?? DEFAULT_TIMEOUT_MS, 'timeout');
    this.maxRetries = validateMaxRetries(opts.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    const envLevel = readEnv('AGENT_RUNS_LOG');
    this.logLevel = opts.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'warn');
    const logger = levelLogger(opts.logger ?? console, this.logLevel);
    this.log = this.logLevel === 'info' || this.logLevel === 'debug' ? logger : undefined;
    this.debug = this.logLevel === 'debug' ? logger : undefined;
    const fetchImpl = opts.fetch ?? (globalThis.fetch as Fetch | undefined);
    if (!fetchImpl) throw new Errors.AgentRunsError('No `fetch` in this runtime: pass one as the `fetch` option.');
    this.fetch = fetchImpl;

    this.http = createClient<paths>({
      baseUrl: this.baseURL,
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${this.apiKey}`,
        'User-Agent': `AgentRuns/JS ${VERSION}`,
        ...opts.defaultHeaders,
      },
      fetch: (request) => this.fetchWithRetries(request, {}, request.signal),
      // Made once here rather than per request (openapi-fetch's defaults when none is given).
      querySerializer: createQuerySerializer(),
      pathSerializer: templatePathSerializer(),
    });
    // Track registered middleware: while there is none, SDK calls skip building a Request.
    const { use, eject } = this.http;
    this.http.use = (...middleware) => {
      use(...middleware);
      middleware.forEach((m) => m && this.middleware.add(m));
    };
    this.http.eject = (...middleware) => {
      eject(...middleware);
      middleware.forEach((m) => this.middleware.delete(m));
    };
  }

  private readonly middleware = new Set<object>();

  agent: Agent = new Agent(this);
  factories: Factories = new Factories(this);
  secrets: Secrets = new Secrets(this);
  apiKeys: APIKeys = new APIKeys(this);
  auditEvents: AuditEvents = new AuditEvents(this);
  notifications: Notifications = new Notifications(this);
  budget: Budget = new Budget(this);
  usage: Usage = new Usage(this);

  /** A new client with these options over this one's. */
  withOptions(options: Partial<ClientOptions>): this {
    const Ctor = this.constructor as new (options: ClientOptions) => this;
    return new Ctor({
      ...this._options,
      apiKey: this.apiKey,
      baseURL: this.baseURL,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      logLevel: this.logLevel,
      fetch: this.fetch,
      ...options,
    });
  }

  // Generic methods, for endpoints the resources do not cover. `path` is relative to baseURL.
  get<T = unknown>(path: string, options?: GenericRequestOptions): APIPromise<T> {
    return this.request<T>({ method: 'get', path, ...options });
  }
  post<T = unknown>(path: string, options?: GenericRequestOptions): APIPromise<T> {
    return this.request<T>({ method: 'post', path, ...options });
  }
  put<T = unknown>(path: string, options?: GenericRequestOptions): APIPromise<T> {
    return this.request<T>({ method: 'put', path, ...options });
  }
  patch<T = unknown>(path: string, options?: GenericRequestOptions): APIPromise<T> {
    return this.request<T>({ method: 'patch', path, ...options });
  }
  delete<T = unknown>(path: string, options?: GenericRequestOptions): APIPromise<T> {
    return this.request<T>({ method: 'delete', path, ...options });
  }

  request<T>(options: FinalRequestOptions): APIPromise<T> {
    return new APIPromise<T>(this.makeRequest(options));
  }

  requestAPIList<Item>(itemsKey: string, options: FinalRequestOptions): PagePromise<Item> {
    return new PagePromise<Item>(this, this.makeRequest(options), itemsKey);
  }

  /**
   * One operation of the spec, its path, params and body checked against the generated types.
   * @internal used by the resource classes.
   */
  _operation<M extends HTTPMethod, P extends PathsFor<M>>(
    method: M,
    path: P,
    init: OperationInit<M, P>,
    options?: RequestOptions & { stream?: boolean },
  ): APIPromise<OperationData<M, P>> {
    return this.request(operationOptions(method, path, init, options));
  }

  /** @internal a list operation: a page promise over the answer's `itemsKey` array. */
  _list<P extends PathsFor<'get'>, K extends keyof OperationData<'get', P> & string>(
    path: P,
    itemsKey: K,
    init: OperationInit<'get', P>,
    options?: RequestOptions,
  ): PagePromise<ListItem<OperationData<'get', P>[K]>> {
    return this.requestAPIList(itemsKey, operationOptions('get', path, init, options));
  }

  private async makeRequest(options: FinalRequestOptions): Promise<APIResponseProps> {
    if (options.timeout !== undefined) validateTimeout(options.timeout, 'options.timeout');
    if (options.maxRetries !== undefined) validateMaxRetries(options.maxRetries, 'options.maxRetries');
    const { error, response } = await (this.http as unknown as UntypedFetchClient).request(options.method, options.path, {
      params: { path: options.pathParams, query: options.query },
      body: options.body,
      headers: requestHeaders(options),
      // The body is parsed by APIPromise, only when asked for: asResponse() hands it back unread.
      parseAs: 'stream',
      fetch: (request: Request | PreparedRequest) => this.fetchWithRetries(request, options, options.signal),
      // undefined: openapi-fetch's own (a real Request, which middleware needs).
      Request: this.middleware.size === 0 ? PreparedRequest : undefined,
    });
    if (!response.ok) throw Errors.APIError.generate(response.status, error, response.headers);
    return { response, options };
  }

  /**
   * The retry loop, as the `fetch` openapi-fetch is given. Sends the request openapi-fetch built once
   * per attempt — its URL, method and headers plus that attempt's `x-retry-count` and signal, and the
   * same body bytes each time (read once; a Request body can be read only once) — with a per-attempt
   * timeout, and retries connection errors, timeouts and retryable statuses. Answers the last response
   * (ok or not); throws only APIConnectionError, APIConnectionTimeoutError or APIUserAbortError.
   *
   * `userSignal` is the caller's AbortSignal: `options.signal` for SDK methods, the Request's own
   * signal for requests made through `client.http`.
   */
  private async fetchWithRetries(
    request: Request | PreparedRequest,
    options: Pick<RequestOptions, 'timeout' | 'maxRetries'>,
    userSignal: AbortSignal | null | undefined,
  ): Promise<Response> {
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const { method, url } = request;
    let headers: Headers;
    let body: BodyInit | null;
    if (request instanceof PreparedRequest) {
      ({ headers, body } = request);
    } else {
      headers = new Headers(request.headers);
      // Read the body once; every attempt sends the same bytes.
      body = request.body ? await request.arrayBuffer() : null;
    }
    // One key per logical POST, so the server can replay instead of creating twice.
    if (method === 'POST' && !headers.has('idempotency-key')) headers.set('Idempotency-Key', uuid4());

    for (let attempt = 0; ; attempt++) {
      if (userSignal?.aborted) throw new Errors.APIUserAbortError();
      // A fresh Headers per retry, so no attempt's headers change after they were handed to fetch.
      if (attempt > 0) headers = new Headers(headers);
      headers.set('x-retry-count', String(attempt));
      const timeoutController = new AbortController();
      const { signal, dispose } = userSignal ? anySignal([userSignal, timeoutController.signal]) : { signal: timeoutController.signal, dispose: undefined };
      const timer = setTimeout(abort, timeout, timeoutController);
      const canRetry = attempt < maxRetries;
      let response: Response;
      try {
        response = await this.fetch.call(undefined, url, {
          method,
          headers,
          body,
          signal,
          redirect: request.redirect,
          credentials: request.credentials,
        });
      } catch (err) {
        dispose?.();
        if (userSignal?.aborted) throw new Errors.APIUserAbortError({ cause: err });
        const timedOut = timeoutController.signal.aborted || isTimeoutError(err);
        if (canRetry) {
          const delay = retryDelayMs(undefined, attempt);
          this.log?.info(
            `${method} ${url}: connection ${timedOut ? `timed out after ${timeout} ms` : 'failed'}; retry ${attempt + 1} in ${Math.round(delay)} ms`,
          );
          await sleep(delay, userSignal);
          continue;
        }
        this.log?.info(`${method} ${url}: connection ${timedOut ? 'timed out' : 'failed'}; no retries left`);
        if (timedOut) throw new Errors.APIConnectionTimeoutError({ cause: err });
        throw new Errors.APIConnectionError({ cause: err });
      } finally {
        // The timeout covers the wait for response headers; the caller's signal stays linked so that
        // it still aborts the body (only a retried attempt unlinks it).
        clearTimeout(timer);
      }

      if (response.ok || !canRetry || !(await shouldRetryResponse(response))) {
        this.debug?.debug(`${method} ${url} → ${response.status} (attempt ${attempt + 1})`);
        return response;
      }
      const delay = retryDelayMs(response.headers, attempt);
      this.log?.info(`${method} ${url} → ${response.status}; retry ${attempt + 1} in ${Math.round(delay)} ms`);
      await response.body?.cancel().catch(() => {});
      dispose?.();
      await sleep(delay, userSignal);
    }
  }

  static AgentRuns = this;
  static DEFAULT_TIMEOUT = DEFAULT_TIMEOUT_MS;

  static AgentRunsError = Errors.AgentRunsError;
  static APIError = Errors.APIError;
  static APIConnectionError = Errors.APIConnectionError;
  static APIConnectionTimeoutError = Errors.APIConnectionTimeoutError;
  static APIUserAbortError = Errors.APIUserAbortError;
  static BadRequestError = Errors.BadRequestError;
  static AuthenticationError = Errors.AuthenticationError;
  static PermissionDeniedError = Errors.PermissionDeniedError;
  static NotFoundError = Errors.NotFoundError;
  static ConflictError = Errors.ConflictError;
  static UnprocessableEntityError = Errors.UnprocessableEntityError;
  static RateLimitError = Errors.RateLimitError;
  static InternalServerError = Errors.InternalServerError;
}

function operationOptions(
  method: HTTPMethod,
  path: string,
  init: { params?: { path?: unknown; query?: unknown }; body?: unknown } | undefined,
  options: (RequestOptions & { stream?: boolean }) | undefined,
): FinalRequestOptions {
  const query = init?.params?.query as Record<string, unknown> | undefined;
  return {
    ...options,
    method,
    path,
    pathParams: init?.params?.path as Record<string, string> | undefined,
    query: options?.query ? { ...query, ...options.query } : query,
    body: init?.body,
  };
}

/**
 * openapi-fetch's path serializer, with each URL template split once: a template whose parameters are
 * all `{name}` (simple style, the only one the spec uses) is filled with encodeURIComponent of each
 * primitive value; anything else goes to openapi-fetch's own serializer.
 */
function templatePathSerializer(): typeof defaultPathSerializer {
  const templates = new Map<string, { literals: string[]; names: string[] } | null>();
  return (url, params) => {
    let template = templates.get(url);
    if (template === undefined) {
      const parts = url.split(/\{([^{}]+)\}/);
      const names = parts.filter((_, i) => i % 2 === 1);
      template = names.every((name) => /^[\w-]+$/.test(name)) ? { literals: parts.filter((_, i) => i % 2 === 0), names } : null;
      // Templates come from the spec's paths (plus generic calls); the bound keeps ad-hoc URLs from piling up.
      if (templates.size < 1000) templates.set(url, template);
    }
    if (template === null) return defaultPathSerializer(url, params);
    let out = template.literals[0]!;
    for (let i = 0; i < template.names.length; i++) {
      const name = template.names[i]!;
      const value = params[name];
      if (value !== null && typeof value === 'object') return defaultPathSerializer(url, params);
      out += value === undefined || value === null ? `{${name}}` : encodeURIComponent(value as string | number | boolean);
      out += template.literals[i + 1]!;
    }
    return out;
  };
}

function requestHeaders(options: FinalRequestOptions): Record<string, string | null | undefined> | undefined {
  if (!options.stream && !options.idempotencyKey && !options.headers) return undefined;
  return {
    ...(options.stream ? { Accept: 'text/event-stream' } : {}),
    ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    ...headersRecord(options.headers),
  };
}

function abort(controller: AbortController): void {
  controller.abort();
}

function isTimeoutError(err: unknown): boolean {
  if (isAbortError(err)) return true;
  const cause = typeof err === 'object' && err !== null && 'cause' in err ? String(err.cause) : '';
  return /timed? ?out/i.test(String(err) + cause);
}

function validateTimeout(value: number, name: string): number {
  // setTimeout fires at once beyond 2^31 - 1 ms.
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw new Errors.AgentRunsError(`${name} must be a positive number of milliseconds (at most 2^31 - 1)`);
  }
  return value;
}

function validateMaxRetries(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new Errors.AgentRunsError(`${name} must be a non-negative integer`);
  }
  return value;
}
