import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner } from '../../src/engine/runner';
import { EchoRunner } from '../../src/engine/runners/echo';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, waitForRunState, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

const userTexts = (conversation: any): string[][] =>
  conversation.steps.map((s: any) => s.messages.filter((m: any) => m.role === 'user').flatMap((m: any) => m.content.map((b: any) => b.text)));

describe.each(testDatabases())('createRunFollowup (%s)', (database) => {
  describe('runs that are not executing (no workers)', () => {
    let server: TestServer;
    let api: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ database, engine: false });
      api = apiClient(server.apiUrl, (await server.createTeamWithKey('steerers', 'member')).apiKey);
    });
    afterAll(() => server?.close());

    const runIn = async (state: string): Promise<string> => {
      const { run_id } = (await api.post('/agent/runs', { prompt: `first in ${state}` })).body;
      if (state !== 'QUEUED') await server.ctx.db.updateTable('runs').set({ state }).where('id', '=', run_id).execute();
      return run_id;
    };

    it.each(['QUEUED', 'PENDING', 'CLAIMED'])('queues a follow-up for a %s run (state unchanged) and shows it in the conversation', async (state) => {
      const id = await runIn(state);
      const res = await api.post(`/agent/runs/${id}/followups`, { message: 'also do X' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ run_id: id, task_id: id, state });
      const inbox = await server.ctx.db.selectFrom('run_followups').select(['message', 'delivered_at']).where('run_id', '=', id).execute();
      expect(inbox).toEqual([{ message: 'also do X', delivered_at: null }]);
      const conversation = (await api.get(`/agent/runs/${id}/conversation`)).body;
      expect(userTexts(conversation).flat()).toEqual([`first in ${state}`, 'also do X']);
    });

    it.each(['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR'])('re-queues a %s run to continue the same conversation', async (state) => {
      const id = await runIn(state);
      const res = await api.post(`/agent/runs/${id}/followups`, { message: 'one more thing' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ run_id: id, task_id: id, state: 'QUEUED' });
      expect((await api.get(`/agent/runs/${id}`)).body.state).toBe('QUEUED');
      const conversation = (await api.get(`/agent/runs/${id}/conversation`)).body;
      expect(userTexts(conversation)).toEqual([[`first in ${state}`], ['one more thing']]);
    });

    it('refuses a follow-up to a CANCELLED run with 409 conflict (final)', async () => {
      const id = await runIn('QUEUED');
      await api.post(`/agent/runs/${id}/cancel`);
      const res = await api.post(`/agent/runs/${id}/followups`, { message: 'too late' });
      expectProblem(res, 409, 'conflict');
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(await server.ctx.db.selectFrom('run_followups').select('id').where('run_id', '=', id).execute()).toEqual([]);
    });

    it('requires a non-blank message', async () => {
      const id = await runIn('QUEUED');
      expectProblem(await api.post(`/agent/runs/${id}/followups`, {}), 400, 'invalid_request');
      expectProblem(await api.post(`/agent/runs/${id}/followups`, { message: '' }), 400, 'invalid_request');
      const blank = await api.post(`/agent/runs/${id}/followups`, { message: '   ' });
      expectProblem(blank, 400, 'invalid_request');
      // The contract's pattern (a non-whitespace character) refuses it first.
      expect(blank.body.errors).toEqual([{ path: '$.message', message: 'must match pattern "\\S"' }]);
    });
  });

  describe('runs being executed', () => {
    let server: TestServer;
    let api: ApiClient;
    // The echo runner, held INPROGRESS until the test opens the gate: the follow-up finds the run executing
    // however slow the machine is (a delay would let a loaded machine finish the run first).
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const echo = new EchoRunner(0);
    const gatedEcho: Runner = {
      name: 'echo',
      run: async (ctx) => {
        await gate;
        return echo.run(ctx);
      },
    };
    beforeAll(async () => {
      server = await startTestServer({ database, engine: { runner: gatedEcho } });
      api = apiClient(server.apiUrl, (await server.createTeamWithKey('live-steerers', 'member')).apiKey);
    });
    afterAll(() => server?.close());

    it('delivers a follow-up to an INPROGRESS run and, after it finished, a follow-up runs it again in the same conversation', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'start' })).body;
      await waitForRunState(api, run_id, ['INPROGRESS']);
      const live = await api.post(`/agent/runs/${run_id}/followups`, { message: 'steer' });
      expect(live.status).toBe(200);
      expect(live.body.state).toBe('INPROGRESS');
      openGate();
      await waitForRunState(api, run_id, ['SUCCEEDED']);

      const resumed = await api.post(`/agent/runs/${run_id}/followups`, { message: 'continue please' });
      expect(resumed.body).toEqual({ run_id, task_id: run_id, state: 'QUEUED' });
      const done = await waitForRunState(api, run_id, ['SUCCEEDED']);
      expect(done.run_id).toBe(run_id);

      const conversation = (await api.get(`/agent/runs/${run_id}/conversation`)).body;
      const users = userTexts(conversation).flat();
      expect(users).toEqual(['start', 'steer', 'continue please']);
      const undelivered = await server.ctx.db.selectFrom('run_followups').select('id').where('run_id', '=', run_id).where('delivered_at', 'is', null).execute();
      expect(undelivered).toEqual([]);
      const assistant = conversation.steps.flatMap((s: any) => s.messages.filter((m: any) => m.role === 'assistant'));
      expect(assistant.length).toBeGreaterThanOrEqual(2);
    });
  });
});
