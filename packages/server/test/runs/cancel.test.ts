import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, waitForRunState, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('cancelRun (%s)', (database) => {
  describe('runs that are not executing (no workers)', () => {
    let server: TestServer;
    let api: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ database, engine: false });
      api = apiClient(server.apiUrl, (await server.createTeamWithKey('cancellers', 'member')).apiKey);
    });
    afterAll(() => server?.close());

    /** A run put into `state` the way the engine would leave it (test setup). */
    const runIn = async (state: string): Promise<string> => {
      const { run_id } = (await api.post('/agent/runs', { prompt: `run in ${state}` })).body;
      if (state !== 'QUEUED') {
        const lease = state === 'CLAIMED' ? { lease_owner: 'worker-x', lease_expires_at: '2999-01-01T00:00:00.000Z' } : {};
        await server.ctx.db
          .updateTable('runs')
          .set({ state, ...lease })
          .where('id', '=', run_id)
          .execute();
      }
      return run_id;
    };

    it.each(['QUEUED', 'CLAIMED', 'BLOCKED'])('cancels a %s run: answers the id as a bare JSON string; state CANCELLED', async (state) => {
      const id = await runIn(state);
      const before = (await api.get(`/agent/runs/${id}`)).body.updated_at;
      const res = await api.post(`/agent/runs/${id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.text).toBe(JSON.stringify(id));
      const run = (await api.get(`/agent/runs/${id}`)).body;
      expect(run.state).toBe('CANCELLED');
      expect(run.updated_at >= before).toBe(true);
      const row = await server.ctx.db.selectFrom('runs').select(['lease_owner', 'cancel_requested_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ lease_owner: null, cancel_requested_at: expect.any(String) });
    });

    it('refuses a PENDING run with 409 conflict, retryable (as the Oz API), changing nothing', async () => {
      const id = await runIn('PENDING');
      const res = await api.post(`/agent/runs/${id}/cancel`);
      expectProblem(res, 409, 'conflict');
      expect(res.body.retryable).toBe(true);
      expect((await api.get(`/agent/runs/${id}`)).body.state).toBe('PENDING');
    });

    it('answers a second cancel of a CANCELLED run 400 (terminal, as the Oz API), changing nothing; a retry with the same Idempotency-Key replays the 200', async () => {
      const id = await runIn('QUEUED');
      const first = await api.post(`/agent/runs/${id}/cancel`, undefined, { 'Idempotency-Key': `cancel-${id}` });
      expect(first.status).toBe(200);
      const run = (await api.get(`/agent/runs/${id}`)).body;
      expectProblem(await api.post(`/agent/runs/${id}/cancel`), 400, 'invalid_request');
      const replay = await api.post(`/agent/runs/${id}/cancel`, undefined, { 'Idempotency-Key': `cancel-${id}` });
      expect(replay.status).toBe(200);
      expect(replay.body).toBe(id);
      expect((await api.get(`/agent/runs/${id}`)).body).toEqual(run);
    });

    it.each(['SUCCEEDED', 'FAILED', 'ERROR'])('refuses to cancel a %s run: 400 invalid_request (terminal, as the Oz API)', async (state) => {
      const id = await runIn(state);
      const res = await api.post(`/agent/runs/${id}/cancel`);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.detail).toContain(state);
      expect((await api.get(`/agent/runs/${id}`)).body.state).toBe(state);
    });

    it('answers 404 for an unknown run', async () => {
      expectProblem(await api.post('/agent/runs/00000000-0000-4000-8000-000000000000/cancel'), 404, 'resource_not_found');
    });
  });

  describe('runs being executed', () => {
    let server: TestServer;
    let api: ApiClient;
    beforeAll(async () => {
      // The echo runner stays INPROGRESS for a minute unless aborted. No heartbeat comes during the tests (an
      // hour, under a two-hour lease): an abort seen here came from the cancel itself.
      server = await startTestServer({ database, env: { ECHO_DELAY_MS: '60000', RUN_HEARTBEAT_SECONDS: '3600', RUN_LEASE_SECONDS: '7200' } });
      api = apiClient(server.apiUrl, (await server.createTeamWithKey('live-cancellers', 'member')).apiKey);
    });
    afterAll(() => server?.close());

    it('cancels an INPROGRESS run and its runner is aborted at once', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'long work' })).body;
      await waitForRunState(api, run_id, ['INPROGRESS']);
      expect(server.engine!.inFlight()).toContain(run_id);
      const res = await api.post(`/agent/runs/${run_id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.body).toBe(run_id);
      // The bound only ends a failure: well inside the runner's minute.
      const deadline = Date.now() + 15_000;
      while (server.engine!.inFlight().includes(run_id) && Date.now() < deadline) await delay(10);
      expect(server.engine!.inFlight()).not.toContain(run_id);
      // The worker is done with the run; the aborted runner did not overwrite the cancellation.
      const run = (await api.get(`/agent/runs/${run_id}`)).body;
      expect(run.state).toBe('CANCELLED');
      expect(run.started_at).toBeDefined();
    });
  });

  describe('runs that finished', () => {
    let server: TestServer;
    let api: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ database, env: { ECHO_DELAY_MS: '10' } });
      api = apiClient(server.apiUrl, (await server.createTeamWithKey('late-cancellers', 'member')).apiKey);
    });
    afterAll(() => server?.close());

    it('refuses to cancel a run the engine completed', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'quick' })).body;
      await waitForRunState(api, run_id, ['SUCCEEDED']);
      expectProblem(await api.post(`/agent/runs/${run_id}/cancel`), 400, 'invalid_request');
    });
  });
});
