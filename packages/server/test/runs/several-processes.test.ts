/**
 * Several server processes on one database (docs/architecture.md §Several processes), as two or three
 * servers in this test process on one database: ROLE=api serves the REST API and no run engine, ROLE=worker
 * runs the engine and serves only the operational endpoints. On PostgreSQL the run notices (LISTEN/NOTIFY)
 * carry runs, cancels and events between them — the worker polls only once a minute and beats every ten
 * seconds there, so anything that arrives well inside those came through a notice, however slow the machine;
 * on SQLite polling and heartbeats do the same, slower.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { deletePastRateWindows } from '../../src/http/rate-limit';
import { loadSettings, SettingsError } from '../../src/settings';
import { apiClient, expectProblem, openSse, waitForRunState, type ApiClient, type SseEvent } from '../support/http';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';

const statesOf = (events: SseEvent[], runId: string): string[] =>
  events.filter((e) => e.event === 'state' && e.data.run_id === runId).map((e) => e.data.state as string);

/** Resolves once `condition` holds; fails the test after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await delay(10);
  }
}

describe('ROLE', () => {
  const rolesOf = (role?: string) => [...loadSettings(role === undefined ? {} : { ROLE: role }).roles];
  it('is every role by default and for all; a comma list names some, in any order', () => {
    expect(rolesOf()).toEqual(['api', 'ingress', 'worker']);
    expect(rolesOf('all')).toEqual(['api', 'ingress', 'worker']);
    expect(rolesOf('worker, api')).toEqual(['api', 'worker']);
  });
  it('refuses an unknown role or an empty list, saying what is allowed', () => {
    for (const role of ['web', 'api,web', ',']) expect(() => rolesOf(role)).toThrow(SettingsError);
    expect(() => rolesOf('web')).toThrow(/ROLE must be all or a comma list of api, ingress, worker/);
  });
});

describe.each(testDatabases())('several processes on one database (%s)', (kind) => {
  const postgres = kind.dialect === 'postgres';
  /** Without notices (SQLite) a worker finds new runs by polling and cancels at its heartbeat. */
  const engine = { pollIntervalMs: postgres ? 60_000 : 200 };
  const workerEnv = (echoDelayMs: number) => ({ ROLE: 'worker', ECHO_DELAY_MS: String(echoDelayMs), ...(postgres ? {} : { RUN_HEARTBEAT_SECONDS: '1' }) });
  /**
   * Bounds that tell the mechanism apart rather than time the machine: a third of the poll interval (a run or a
   * follow-up that arrives sooner came through a notice), half the default 10 s heartbeat for a cancel (SQLite:
   * a few of its 1 s heartbeats).
   */
  const noticeWithinMs = postgres ? engine.pollIntervalMs / 3 : Infinity;
  const cancelWithinMs = postgres ? 5000 : 10_000;

  /** Both servers' LISTEN connections are up (a notice sent earlier would only be caught by polling). */
  const listening = async (...servers: TestServer[]) => {
    if (postgres) await until(() => servers.every((s) => s.notifications?.listening), 5000, 'notification listeners up');
  };

  describe('an API process and a worker process', () => {
    let apiServer: TestServer;
    let worker: TestServer;
    let api: ApiClient;
    let apiKey: string;
    beforeAll(async () => {
      apiServer = await startTestServer({ database: kind, env: { ROLE: 'api' } });
      worker = await startTestServer({ sharing: apiServer, env: workerEnv(50), engine });
      await listening(apiServer, worker);
      ({ apiKey } = await apiServer.createTeamWithKey('split', 'member'));
      api = apiClient(apiServer.apiUrl, apiKey);
    });
    afterAll(async () => {
      await worker?.close();
      await apiServer?.close();
    });

    it('executes a run created on the API process on the worker process', async () => {
      expect(apiServer.engine).toBeUndefined();
      const started = Date.now();
      const { run_id } = (await api.post('/agent/runs', { prompt: 'hello from the API' })).body;
      const run = await waitForRunState(api, run_id, ['SUCCEEDED'], 20_000);
      expect(Date.now() - started).toBeLessThan(noticeWithinMs);
      expect(run.started_at).toBeDefined();
      const conversation = (await api.get(`/agent/runs/${run_id}/conversation`)).body;
      expect(JSON.stringify(conversation)).toContain('hello from the API');
    });

    it('re-queues a finished run for a follow-up, and the worker resumes it', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'first' })).body;
      await waitForRunState(api, run_id, ['SUCCEEDED']);
      const accepted = Date.now();
      expect((await api.post(`/agent/runs/${run_id}/followups`, { message: 'and again' })).status).toBeLessThan(300);
      await waitForRunState(api, run_id, ['INPROGRESS', 'SUCCEEDED'], 20_000);
      expect(Date.now() - accepted).toBeLessThan(noticeWithinMs);
      await waitForRunState(api, run_id, ['SUCCEEDED']);
    });

    it("streams the worker's events to an SSE client of the API process: the run's stream", async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'watch me' })).body;
      // From the first event on, whatever the worker did before the stream opened.
      const stream = await openSse(`${apiServer.apiUrl}/agent/runs/${run_id}/events`, apiKey, { 'last-event-id': '0' });
      try {
        await stream.ended;
        expect(statesOf(stream.events, run_id)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
        expect(stream.events.some((e) => e.event === 'content' && JSON.stringify(e.data).includes('watch me'))).toBe(true);
      } finally {
        stream.close();
      }
    });

    // On SQLite the team-wide stream carries the changes of its own process only (docs/decisions.md §Dashboard).
    it.runIf(postgres)("streams the worker's state changes to the team stream of the API process", async () => {
      const stream = await openSse(`${apiServer.apiUrl}/agent/run-events`, apiKey);
      try {
        const { run_id } = (await api.post('/agent/runs', { prompt: 'team watch' })).body;
        await stream.waitFor((events) => statesOf(events, run_id).includes('SUCCEEDED'), 5000);
        expect(statesOf(stream.events, run_id)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
      } finally {
        stream.close();
      }
    });

    it('serves no REST route, dashboard or ingress on the worker process: 404 problems naming the role', async () => {
      const res = await apiClient(worker.apiUrl, apiKey).get('/agent/runs');
      expectProblem(res, 404, 'resource_not_found');
      expect(res.body.detail).toMatch(/ROLE=worker.*REST API.*api role/);
      const page = await fetch(`${worker.baseUrl}/runs`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(404);
      const delivery = await fetch(`${worker.baseUrl}/webhooks/w/whk_unknown`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(delivery.status).toBe(404);
      expect((await delivery.json()).detail).toMatch(/webhook ingress.*ingress role/);
      expect((await fetch(`${worker.baseUrl}/healthz`)).status).toBe(200);
    });

    it('says the roles of each process in /readyz and /metrics', async () => {
      const workerReady = await fetch(`${worker.baseUrl}/readyz`);
      expect(workerReady.status).toBe(200);
      expect((await workerReady.json()).roles).toEqual(['worker']);
      expect((await (await fetch(`${apiServer.baseUrl}/readyz`)).json()).roles).toEqual(['api']);
      const metrics = await (await fetch(`${worker.baseUrl}/metrics`)).text();
      expect(metrics).toContain('process_role{role="worker"} 1');
      expect(metrics).not.toContain('process_role{role="api"}');
    });
  });

  describe('cancelling a run that executes on another process', () => {
    let apiServer: TestServer;
    let worker: TestServer;
    beforeAll(async () => {
      apiServer = await startTestServer({ database: kind, env: { ROLE: 'api' } });
      // The echo runner stays INPROGRESS for a minute unless aborted.
      worker = await startTestServer({ sharing: apiServer, env: workerEnv(60_000), engine });
      await listening(apiServer, worker);
    });
    afterAll(async () => {
      await worker?.close();
      await apiServer?.close();
    });

    it(`stops the runner on the worker process within ${cancelWithinMs} ms`, async () => {
      const api = apiClient(apiServer.apiUrl, (await apiServer.createTeamWithKey('remote-cancellers', 'member')).apiKey);
      const { run_id } = (await api.post('/agent/runs', { prompt: 'long work' })).body;
      await waitForRunState(api, run_id, ['INPROGRESS']);
      expect(worker.engine!.inFlight()).toContain(run_id);
      const started = Date.now();
      const res = await api.post(`/agent/runs/${run_id}/cancel`);
      expect(res.status).toBe(200);
      await until(() => !worker.engine!.inFlight().includes(run_id), cancelWithinMs - (Date.now() - started), 'the runner stopped');
      const run = (await api.get(`/agent/runs/${run_id}`)).body;
      expect(run.state).toBe('CANCELLED');
    });
  });

  describe('the REST request budget', () => {
    let first: TestServer;
    let second: TestServer;
    // Both at one instant: the window cannot turn during the test.
    const clock = new ManualClock(Date.parse('2026-11-21T10:00:10Z'));
    beforeAll(async () => {
      const env = { ROLE: 'api', REST_REQUESTS_PER_MINUTE: '4', REST_RATE_WINDOW_SECONDS: '60' };
      first = await startTestServer({ database: kind, env, clock });
      second = await startTestServer({ sharing: first, env, clock });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('is counted across the API processes on one database', async () => {
      const { apiKey } = await first.createTeamWithKey('spread', 'member');
      const [a, b] = [apiClient(first.apiUrl, apiKey), apiClient(second.apiUrl, apiKey)];
      for (const client of [a, b, a, b]) expect((await client.get('/agent/runs')).status).toBe(200);
      const limited = await b.get('/agent/runs');
      expectProblem(limited, 429, 'rate_limited');
      expect(limited.headers.get('retry-after')).toBe('50');
      expectProblem(await a.get('/agent/runs'), 429, 'rate_limited');

      clock.advance(50_000);
      expect((await a.get('/agent/runs')).status).toBe(200);

      // The REST retention job drops the past window's counter, keeps the current one.
      const counters = () => first.ctx.db.selectFrom('rest_rate_counters').select(['window_start', 'count']).orderBy('window_start').execute();
      expect((await counters()).map((c) => Number(c.count))).toEqual([6, 1]);
      expect(await deletePastRateWindows(first.ctx.db, clock.now(), 60)).toBe(1);
      expect((await counters()).map((c) => Number(c.count))).toEqual([1]);
    });
  });
});
