import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import AgentRunsDefault, {
  AgentRuns,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Client,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type ClientOptions,
  type Fetch,
} from '../src/index';
import { backoffDelayMs, retryDelayMs } from '../src/internal/retry';
import { anySignal, linkSignals } from '../src/internal/signals';
import { hangingFetch, json, mockFetch, problem, sequence, settle } from './utils/mock-fetch';

const baseURL = 'http://api.test/api/v1';

function client(fetch: unknown, opts: Partial<ClientOptions> = {}) {
  return new AgentRuns({ apiKey: 'ar_live_test', baseURL, fetch: fetch as Fetch, logLevel: 'off', ...opts });
}

const run = {
  run_id: 'run-1',
  task_id: 'run-1',
  title: 't',
  state: 'QUEUED',
  prompt: 'p',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

describe('client construction', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is exported as AgentRuns, Client and the default export', () => {
    expect(Client).toBe(AgentRuns);
    expect(AgentRunsDefault).toBe(AgentRuns);
  });

  it('reads AGENT_RUNS_API_KEY and AGENT_RUNS_BASE_URL when no options are given', async () => {
    vi.stubEnv('AGENT_RUNS_API_KEY', 'ar_live_env');
    vi.stubEnv('AGENT_RUNS_BASE_URL', 'http://env.test/api/v1/');
    const { fetch, calls } = mockFetch(() => json(run));
    await new AgentRuns({ fetch }).get('/agent/runs/run-1');
    expect(calls[0]!.request.url).toBe('http://env.test/api/v1/agent/runs/run-1');
    expect(calls[0]!.request.headers.get('authorization')).toBe('Bearer ar_live_env');
  });

  it('defaults the base URL to http://localhost:8080/api/v1', () => {
    vi.stubEnv('AGENT_RUNS_BASE_URL', '');
    expect(new AgentRuns({ apiKey: 'k' }).baseURL).toBe('http://localhost:8080/api/v1');
  });

  it('throws without an API key', () => {
    vi.stubEnv('AGENT_RUNS_API_KEY', '');
    expect(() => new AgentRuns({})).toThrow(/AGENT_RUNS_API_KEY/);
  });

  it('rejects a non-positive timeout and a negative maxRetries', () => {
    expect(() => new AgentRuns({ apiKey: 'k', timeout: 0 })).toThrow(/timeout/);
    expect(() => new AgentRuns({ apiKey: 'k', maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it('withOptions keeps the other options and overrides the given ones', async () => {
    const { fetch, calls } = mockFetch(() => json({}));
    const base = client(fetch, { defaultHeaders: { 'x-team': 'a' }, timeout: 1234 });
    const derived = base.withOptions({ maxRetries: 0, defaultHeaders: { 'x-team': 'b' } });
    expect(derived).toBeInstanceOf(AgentRuns);
    expect(derived.timeout).toBe(1234);
    expect(derived.maxRetries).toBe(0);
    expect(derived.apiKey).toBe('ar_live_test');
    await derived.get('/x');
    expect(calls[0]!.request.headers.get('x-team')).toBe('b');
    expect(base.maxRetries).toBe(2);
  });
});

describe('requests', () => {
  it('sends auth, accept, user agent and default headers; per-request null removes one', async () => {
    const { fetch, calls } = mockFetch(() => json({}));
    const c = client(fetch, { defaultHeaders: { 'x-default': '1', 'x-drop': 'y' } });
    await c.get('/things', { headers: { 'x-extra': '2', 'x-drop': null } });
    const headers = calls[0]!.request.headers;
    expect(headers.get('authorization')).toBe('Bearer ar_live_test');
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('user-agent')).toMatch(/^AgentRuns\/JS /);
    expect(headers.get('x-default')).toBe('1');
    expect(headers.get('x-extra')).toBe('2');
    expect(headers.has('x-drop')).toBe(false);
  });

  it('percent-encodes path parameters, each template once and every call alike', async () => {
    const { fetch, calls } = mockFetch(() => json({ ok: true }));
    const c = client(fetch);
    await c.agent.runs.retrieve('a/b c?d');
    await c.agent.runs.retrieve('run-2');
    await c.factories.webhooks.deliveries.retrieve('fac 1', 'wh/1', 'dlv#1');
    expect(calls.map((x) => x.request.url)).toEqual([
      `${baseURL}/agent/runs/a%2Fb%20c%3Fd`,
      `${baseURL}/agent/runs/run-2`,
      `${baseURL}/factories/fac%201/webhooks/wh%2F1/deliveries/dlv%231`,
    ]);
  });

  it('generic methods send the method, JSON body and query', async () => {
    const { fetch, calls } = mockFetch(() => json({ ok: true }));
    const c = client(fetch);
    expect(await c.post('/custom', { body: { a: 1 }, query: { q: 'x y', many: ['a', 'b'] } })).toEqual({ ok: true });
    await c.put('/custom', { body: { b: 2 } });
    await c.patch('/custom', { body: { c: 3 } });
    await c.delete('/custom');
    await c.get('/custom');
    expect(calls.map((x) => x.request.method)).toEqual(['POST', 'PUT', 'PATCH', 'DELETE', 'GET']);
    expect(calls[0]!.request.url).toBe(`${baseURL}/custom?q=x%20y&many=a&many=b`);
    expect(calls[0]!.request.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(calls[0]!.body)).toEqual({ a: 1 });
    expect(JSON.parse(calls[2]!.body)).toEqual({ c: 3 });
    expect(calls[3]!.body).toBe('');
  });

  it('answers undefined for 204 and text for non-JSON bodies', async () => {
    const { fetch } = mockFetch(
      sequence(
        () => new Response(null, { status: 204 }),
        () => new Response('plain'),
      ),
    );
    const c = client(fetch);
    expect(await c.delete('/x')).toBeUndefined();
    expect(await c.get('/y')).toBe('plain');
  });

  it('openapi-fetch middleware sees each logical request once, retries happen beneath it', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(503, 'internal_error'),
        () => json({}),
      ),
    );
    const c = client(fetch, { maxRetries: 1 });
    const seen: string[] = [];
    c.http.use({
      onRequest: ({ request }) => void seen.push(`req ${request.method}`),
      onResponse: ({ response }) => void seen.push(`res ${response.status}`),
    });
    vi.useFakeTimers();
    try {
      await settle(c.get('/x'));
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toHaveLength(2);
    expect(seen).toEqual(['req GET', 'res 200']);
  });
});

describe('retries', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([408, 409, 429, 500, 502, 503, 504])('retries a %i and answers the success that follows', async (status) => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => new Response('busy', { status }),
        () => json(run),
      ),
    );
    const { value, error } = await settle(client(fetch).get('/agent/runs/run-1'));
    expect(error).toBeUndefined();
    expect(value).toEqual(run);
    expect(calls).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 405, 413, 422])('does not retry a %i', async (status) => {
    const { fetch, calls } = mockFetch(() => problem(status, 'some_error', { retryable: undefined }));
    const { error } = await settle(client(fetch).get('/x'));
    expect(error).toBeInstanceOf(APIError);
    expect(calls).toHaveLength(1);
  });

  it('makes 1 + maxRetries (default 2) attempts, then throws the last error', async () => {
    const { fetch, calls } = mockFetch(() => problem(500, 'internal_error'));
    const { error } = await settle(client(fetch).get('/x'));
    expect(calls).toHaveLength(3);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).code).toBe('internal_error');
  });

  it('honours maxRetries from the client and per request', async () => {
    const a = mockFetch(() => problem(500, 'internal_error'));
    await settle(client(a.fetch, { maxRetries: 0 }).get('/x'));
    expect(a.calls).toHaveLength(1);
    const b = mockFetch(() => problem(500, 'internal_error'));
    await settle(client(b.fetch).get('/x', { maxRetries: 4 }));
    expect(b.calls).toHaveLength(5);
  });

  it('sends x-retry-count 0, 1, 2 on the attempts', async () => {
    const { fetch, calls } = mockFetch(() => problem(503, 'internal_error'));
    await settle(client(fetch).get('/x'));
    expect(calls.map((c) => c.request.headers.get('x-retry-count'))).toEqual(['0', '1', '2']);
  });

  it('x-should-retry: true retries a status that is otherwise final', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(400, 'invalid_request', { retryable: undefined }, { 'x-should-retry': 'true' }),
        () => json({ ok: 1 }),
      ),
    );
    const { value } = await settle(client(fetch).get('/x'));
    expect(value).toEqual({ ok: 1 });
    expect(calls).toHaveLength(2);
  });

  it('x-should-retry: false stops retrying a retryable status', async () => {
    const { fetch, calls } = mockFetch(() => problem(409, 'conflict', {}, { 'x-should-retry': 'false' }));
    const { error } = await settle(client(fetch).post('/agent/runs/r/cancel'));
    expect(error).toBeInstanceOf(ConflictError);
    expect(calls).toHaveLength(1);
  });

  it('a problem body with retryable: false is never retried, and its body still reaches the error', async () => {
    const { fetch, calls } = mockFetch(() => problem(500, 'internal_error', { retryable: false, detail: 'fatal' }));
    const { error } = await settle(client(fetch).get('/x'));
    expect(calls).toHaveLength(1);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as APIError).retryable).toBe(false);
    expect((error as APIError).detail).toBe('fatal');
  });

  it('retryable: false wins over x-should-retry: true', async () => {
    const { fetch, calls } = mockFetch(() => problem(503, 'internal_error', { retryable: false }, { 'x-should-retry': 'true' }));
    await settle(client(fetch).get('/x'));
    expect(calls).toHaveLength(1);
  });

  it('waits Retry-After seconds', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(429, 'rate_limited', {}, { 'retry-after': '3' }),
        () => json({}),
      ),
    );
    await settle(client(fetch).get('/x'));
    expect(calls[1]!.at - calls[0]!.at).toBe(3000);
  });

  it('waits until a Retry-After HTTP date', async () => {
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(503, 'internal_error', {}, { 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' }),
        () => json({}),
      ),
    );
    await settle(client(fetch).get('/x'));
    expect(calls[1]!.at - calls[0]!.at).toBe(5000);
  });

  it('retry-after-ms takes precedence over Retry-After', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(429, 'rate_limited', {}, { 'retry-after-ms': '250', 'retry-after': '10' }),
        () => json({}),
      ),
    );
    await settle(client(fetch).get('/x'));
    expect(calls[1]!.at - calls[0]!.at).toBe(250);
  });

  it('Retry-After: 0 retries at once', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(429, 'rate_limited', {}, { 'retry-after': '0' }),
        () => json({}),
      ),
    );
    await settle(client(fetch).get('/x'));
    expect(calls[1]!.at - calls[0]!.at).toBe(0);
  });

  it('ignores a Retry-After above 60 s and backs off instead', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(429, 'rate_limited', {}, { 'retry-after': '120' }),
        () => json({}),
      ),
    );
    await settle(client(fetch).get('/x'));
    const waited = calls[1]!.at - calls[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(375);
    expect(waited).toBeLessThanOrEqual(500);
  });

  it('backs off 0.5 s doubling to 8 s, with up to 25 % jitter taken off', async () => {
    const { fetch, calls } = mockFetch(() => new Response('down', { status: 502 }));
    await settle(client(fetch, { maxRetries: 6 }).get('/x'));
    const waits = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    const nominal = [500, 1000, 2000, 4000, 8000, 8000];
    expect(waits).toHaveLength(nominal.length);
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(nominal[i]! * 0.75);
      expect(w).toBeLessThanOrEqual(nominal[i]!);
    });
  });

  it('backoff bounds hold at the extremes of the jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect([0, 1, 2, 3, 4, 5, 10].map(backoffDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    expect(backoffDelayMs(0)).toBeCloseTo(375, 0);
    expect(backoffDelayMs(4)).toBeCloseTo(6000, 0);
    vi.restoreAllMocks();
    expect(retryDelayMs(new Headers({ 'retry-after': '-1' }), 0)).toBeLessThanOrEqual(500);
    expect(retryDelayMs(new Headers({ 'retry-after': 'soon' }), 0)).toBeLessThanOrEqual(500);
    expect(retryDelayMs(new Headers({ 'retry-after': '60' }), 0)).toBe(60_000);
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '60001' }), 0)).toBeLessThanOrEqual(500);
  });

  it('retries connection errors, then throws APIConnectionError with the cause', async () => {
    const { fetch, calls } = mockFetch(() => {
      throw new TypeError('fetch failed');
    });
    const { error } = await settle(client(fetch).get('/x'));
    expect(calls).toHaveLength(3);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error & { cause: unknown }).cause).toBeInstanceOf(TypeError);
    expect((error as APIError).status).toBeUndefined();
  });

  it('recovers when a connection error is followed by a success', async () => {
    let n = 0;
    const { fetch } = mockFetch(() => {
      if (n++ === 0) throw new TypeError('fetch failed');
      return json({ ok: true });
    });
    expect((await settle(client(fetch).get('/x'))).value).toEqual({ ok: true });
  });
});

describe('idempotency keys', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a POST carries one generated Idempotency-Key, the same on every attempt', async () => {
    const { fetch, calls } = mockFetch(() => problem(503, 'internal_error'));
    await settle(client(fetch).post('/agent/runs', { body: { prompt: 'hi' } }));
    const keys = calls.map((c) => c.request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    // The body is resent intact on each attempt.
    expect(calls.map((c) => c.body)).toEqual(Array(3).fill('{"prompt":"hi"}'));
  });

  it('each logical POST gets its own key', async () => {
    const { fetch, calls } = mockFetch(() => json({}));
    const c = client(fetch);
    await c.post('/agent/runs', { body: {} });
    await c.post('/agent/runs', { body: {} });
    expect(calls[0]!.request.headers.get('idempotency-key')).not.toBe(calls[1]!.request.headers.get('idempotency-key'));
  });

  it('keeps a caller-supplied key, from the option or the header', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(500, 'internal_error'),
        () => json({}),
      ),
    );
    await settle(client(fetch).post('/agent/runs', { body: {}, idempotencyKey: 'my-key' }));
    expect(calls.map((c) => c.request.headers.get('idempotency-key'))).toEqual(['my-key', 'my-key']);
    await settle(client(fetch).post('/agent/runs', { body: {}, headers: { 'Idempotency-Key': 'hdr-key' } }));
    expect(calls[2]!.request.headers.get('idempotency-key')).toBe('hdr-key');
  });

  it('GET, PUT, PATCH and DELETE carry no key', async () => {
    const { fetch, calls } = mockFetch(() => json({}));
    const c = client(fetch);
    await c.get('/x');
    await c.put('/x', { body: {} });
    await c.patch('/x', { body: {} });
    await c.delete('/x');
    expect(calls.every((x) => !x.request.headers.has('idempotency-key'))).toBe(true);
  });
});

describe('timeouts and aborts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('times out each attempt, retries, then throws APIConnectionTimeoutError', async () => {
    const { fetch, calls } = hangingFetch();
    const c = client(fetch, { timeout: 1000 });
    const started = Date.now();
    const { error } = await settle(c.get('/slow'));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(calls).toHaveLength(3);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000 + 375);
    expect(calls[1]!.at - calls[0]!.at).toBeLessThanOrEqual(1000 + 500);
    expect(Date.now() - started).toBeLessThan(3 * 1000 + 1500 + 1);
  });

  it('uses the per-request timeout over the client one (default 60 s)', async () => {
    const { fetch, calls } = hangingFetch();
    expect(client(fetch).timeout).toBe(60_000);
    await settle(client(fetch).get('/slow', { timeout: 200, maxRetries: 0 }));
    expect(calls).toHaveLength(1);
    expect(Date.now() - calls[0]!.at).toBe(200);
  });

  it('a timeout that then succeeds answers normally', async () => {
    let n = 0;
    const hanging = hangingFetch();
    const { fetch } = mockFetch((request, i) => (n++ === 0 ? hanging.fetch(request) : json({ i })));
    expect((await settle(client(fetch, { timeout: 100 }).get('/x'))).value).toEqual({ i: 1 });
  });

  it('a user abort during the request throws APIUserAbortError and is not retried', async () => {
    const { fetch, calls } = hangingFetch();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error } = await settle(client(fetch).get('/x', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });

  it('a user abort during the retry wait stops at once', async () => {
    const { fetch, calls } = mockFetch(() => problem(503, 'internal_error', {}, { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1000);
    const started = Date.now();
    const { error } = await settle(client(fetch).get('/x', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
    expect(Date.now() - started).toBe(1000);
  });

  it('an already aborted signal sends nothing', async () => {
    const { fetch, calls } = mockFetch(() => json({}));
    const { error } = await settle(client(fetch).get('/x', { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(0);
  });
});

describe('errors', () => {
  it.each([
    [400, BadRequestError, 'invalid_request'],
    [401, AuthenticationError, 'authentication_required'],
    [403, PermissionDeniedError, 'not_authorized'],
    [404, NotFoundError, 'resource_not_found'],
    [409, ConflictError, 'conflict'],
    [422, UnprocessableEntityError, 'validation_failed'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal_error'],
    [503, InternalServerError, 'internal_error'],
    [405, APIError, 'method_not_allowed'],
    [413, APIError, 'payload_too_large'],
  ])('%i → %o', async (status, ErrorClass, code) => {
    const { fetch } = mockFetch(() => problem(status, code, { retryable: false }));
    const error = await client(fetch)
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    const e = error as APIError;
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    expect(e.detail).toBe(`detail of ${code}`);
    expect(e.retryable).toBe(false);
    expect(e.requestId).toBe('req_123');
    expect(e.headers?.get('content-type')).toBe('application/problem+json');
    expect(e.message).toBe(`${status} ${code}: detail of ${code}`);
    expect(e.body).toMatchObject({ status, type: `https://agent-runs.dev/errors/${code}` });
  });

  it('keeps validation details and a text body', async () => {
    const errors = [{ path: '$.prompt', message: 'required' }];
    const a = mockFetch(() => problem(422, 'validation_failed', { errors }));
    const e1 = (await client(a.fetch)
      .post('/agent/runs', { body: {} })
      .catch((e: unknown) => e)) as APIError;
    expect(e1.errors).toEqual(errors);

    const b = mockFetch(() => new Response('gateway exploded', { status: 400 }));
    const e2 = (await client(b.fetch)
      .get('/x')
      .catch((e: unknown) => e)) as APIError;
    expect(e2).toBeInstanceOf(BadRequestError);
    expect(e2.body).toBe('gateway exploded');
    expect(e2.code).toBeUndefined();
    expect(e2.message).toBe('400 gateway exploded');
  });

  it('APIError.generate picks the class from the status', () => {
    const headers = new Headers({ 'x-request-id': 'r1' });
    expect(APIError.generate(404, { type: 'https://agent-runs.dev/errors/resource_not_found' }, headers)).toBeInstanceOf(NotFoundError);
    expect(APIError.generate(599, undefined, headers)).toBeInstanceOf(InternalServerError);
    expect(APIError.generate(418, undefined, headers).message).toBe('418 status code (no body)');
    expect(APIError.generate(418, undefined, headers).requestId).toBe('r1');
  });
});

describe('raw responses', () => {
  it('withResponse() gives the data and the Response', async () => {
    const { fetch } = mockFetch(() => json(run, { headers: { 'x-request-id': 'req_9' } }));
    const { data, response, requestId } = await client(fetch).get<typeof run>('/agent/runs/run-1').withResponse();
    expect(data).toEqual(run);
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_9');
  });

  it('asResponse() gives the Response without reading its body', async () => {
    const { fetch } = mockFetch(() => new Response('{not json', { headers: { 'content-type': 'application/json', 'x-a': 'b' } }));
    const promise = client(fetch).get('/x');
    const response = await promise.asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-a')).toBe('b');
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('{not json');
  });

  it('awaiting the same promise twice parses once', async () => {
    const { fetch, calls } = mockFetch(() => json({ n: 1 }));
    const promise = client(fetch).get('/x');
    expect(await promise).toEqual({ n: 1 });
    expect(await promise).toEqual({ n: 1 });
    expect((await promise.withResponse()).data).toEqual({ n: 1 });
    expect(calls).toHaveLength(1);
  });

  it('asResponse() rejects with the APIError of an error status', async () => {
    const { fetch } = mockFetch(() => problem(404, 'resource_not_found'));
    await expect(client(fetch).get('/x').asResponse()).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('pagination', () => {
  const pages: Record<string, { runs: unknown[]; page_info: { has_next_page: boolean; next_cursor: string | null } }> = {
    '': { runs: [{ run_id: 'a' }, { run_id: 'b' }], page_info: { has_next_page: true, next_cursor: 'c1' } },
    c1: { runs: [{ run_id: 'c' }, { run_id: 'd' }], page_info: { has_next_page: true, next_cursor: 'c2' } },
    c2: { runs: [{ run_id: 'e' }], page_info: { has_next_page: false, next_cursor: null } },
  };
  const pagedFetch = () => mockFetch((request) => json(pages[new URL(request.url).searchParams.get('cursor') ?? '']!));

  it('for await walks every item of every page, keeping the filters', async () => {
    const { fetch, calls } = pagedFetch();
    const ids: string[] = [];
    for await (const item of client(fetch).agent.runs.list({ state: ['QUEUED', 'INPROGRESS'], limit: 2 })) {
      ids.push(item.run_id);
    }
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(calls).toHaveLength(3);
    const urls = calls.map((c) => new URL(c.request.url));
    expect(urls[0]!.pathname).toBe('/api/v1/agent/runs');
    expect(urls[0]!.search).toBe('?state=QUEUED&state=INPROGRESS&limit=2');
    expect(urls[2]!.searchParams.getAll('state')).toEqual(['QUEUED', 'INPROGRESS']);
    expect(urls[2]!.searchParams.get('cursor')).toBe('c2');
  });

  it('awaiting gives the first page with hasNextPage()/getNextPage()', async () => {
    const { fetch } = pagedFetch();
    const page = await client(fetch).agent.runs.list();
    expect(page.data.map((r) => r.run_id)).toEqual(['a', 'b']);
    expect(page.items).toBe(page.data);
    expect(page.page_info).toEqual({ has_next_page: true, next_cursor: 'c1' });
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.data.map((r) => r.run_id)).toEqual(['c', 'd']);
    const third = await second.getNextPage();
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toThrow(/No next page/);
  });

  it('iterPages() yields each page', async () => {
    const { fetch } = pagedFetch();
    const sizes: number[] = [];
    for await (const page of (await client(fetch).agent.runs.list()).iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('a next page that fails is retried like any request', async () => {
    vi.useFakeTimers();
    try {
      let failed = false;
      const { fetch, calls } = mockFetch((request) => {
        const cursor = new URL(request.url).searchParams.get('cursor') ?? '';
        if (cursor === 'c1' && !failed) {
          failed = true;
          return problem(503, 'internal_error');
        }
        return json(pages[cursor]!);
      });
      const collect = async () => {
        const ids: string[] = [];
        for await (const run of client(fetch).agent.runs.list()) ids.push(run.run_id);
        return ids;
      };
      expect((await settle(collect())).value).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(calls).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('signals', () => {
  it('the fallback combinator aborts with the first source, and dispose() unlinks', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, b.signal]);
    b.abort('why');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('why');

    const c = new AbortController();
    const other = linkSignals([c.signal]);
    other.dispose();
    c.abort();
    expect(other.signal.aborted).toBe(false);

    expect(linkSignals([AbortSignal.abort('done')]).signal.reason).toBe('done');
  });

  it('anySignal follows every source', () => {
    const a = new AbortController();
    const { signal } = anySignal([undefined, a.signal, null]);
    expect(signal.aborted).toBe(false);
    a.abort();
    expect(signal.aborted).toBe(true);
  });
});

describe('client.http and middleware', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('typed openapi-fetch calls through client.http get auth and retries', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(502, 'internal_error'),
        () => json(run),
      ),
    );
    const { value } = await settle(client(fetch).http.GET('/agent/runs/{runId}', { params: { path: { runId: 'run-1' } } }));
    expect(value!.data).toEqual(run);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.request.headers.get('authorization')).toBe('Bearer ar_live_test');
    expect(calls[1]!.request.headers.get('x-retry-count')).toBe('1');
  });

  it('with middleware registered, a retried POST resends its body with the same key', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => problem(503, 'internal_error'),
        () => json({ run_id: 'r' }),
      ),
    );
    const c = client(fetch);
    const middleware = {
      onRequest: ({ request }: { request: Request }) => {
        request.headers.set('x-mw', '1');
      },
    };
    c.http.use(middleware);
    await settle(c.agent.runs.create({ prompt: 'hi' }));
    expect(calls.map((x) => x.body)).toEqual(['{"prompt":"hi"}', '{"prompt":"hi"}']);
    expect(calls.map((x) => x.request.headers.get('x-mw'))).toEqual(['1', '1']);
    const keys = calls.map((x) => x.request.headers.get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[0]).toBe(keys[1]);
    c.http.eject(middleware);
    await settle(c.agent.runs.create({ prompt: 'again' }));
    expect(calls[2]!.request.headers.has('x-mw')).toBe(false);
  });
});

describe('logging', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logLevel info reports retries to the given logger; the default (warn) stays quiet', async () => {
    const lines: string[] = [];
    const logger = { error: () => {}, warn: () => {}, debug: () => {}, info: (m: string) => void lines.push(m) };
    const { fetch } = mockFetch(
      sequence(
        () => problem(503, 'internal_error'),
        () => json({}),
      ),
    );
    await settle(client(fetch, { logLevel: 'info', logger }).get('/x'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[agent-runs\] GET http:\/\/api\.test\/api\/v1\/x → 503; retry 1 in \d+ ms$/);

    const quiet: string[] = [];
    const { fetch: f2 } = mockFetch(
      sequence(
        () => problem(503, 'internal_error'),
        () => json({}),
      ),
    );
    await settle(client(f2, { logLevel: undefined, logger: { ...logger, info: (m: string) => void quiet.push(m) } }).get('/x'));
    expect(quiet).toEqual([]);
  });
});
