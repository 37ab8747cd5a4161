import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, openSse, waitForRunState, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];

describe.each(testDatabases())('conversation and event stream (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer({ database, env: { ECHO_DELAY_MS: '200' } });
    apiKey = (await server.createTeamWithKey('watchers', 'member')).apiKey;
    api = apiClient(server.apiUrl, apiKey);
  });
  afterAll(() => server?.close());

  it('serves the conversation: one step per turn, messages in order, the prompt first', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: 'echo this' })).body;
    await waitForRunState(api, run_id, ['SUCCEEDED']);
    const res = await api.get(`/agent/runs/${run_id}/conversation`);
    expect(res.status).toBe(200);
    expect(res.body.conversation_id).toMatch(/^conv_/);
    expect(res.body.steps).toHaveLength(1);
    const [step] = res.body.steps;
    expect(step).toMatchObject({ id: expect.any(String), started_at: expect.any(String), completed_at: expect.any(String), steps: [] });
    expect(step.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'echo this' }] });
    expect(step.messages.slice(1).some((m: any) => m.role === 'assistant')).toBe(true);
    expectProblem(await api.get('/agent/runs/00000000-0000-4000-8000-000000000000/conversation'), 404, 'resource_not_found');
  });

  it('streams state and content events with increasing ids and ends after the terminal state', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: 'stream me' })).body;
    const stream = await openSse(`${server.apiUrl}/agent/runs/${run_id}/events`, apiKey);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('x-request-id')).toBeTruthy();
    await stream.ended;

    const events = stream.events.filter((e) => e.id !== undefined);
    // A new stream starts with the current state.
    expect(events[0]).toMatchObject({ event: 'state', data: { run_id, state: expect.any(String), updated_at: expect.any(String) } });
    const ids = events.map((e) => e.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const states = events.filter((e) => e.event === 'state').map((e) => e.data.state);
    expect(states).toContain('INPROGRESS');
    expect(states.at(-1)).toBe('SUCCEEDED');
    expect(events.at(-1)!.event).toBe('state');
    const content = events.filter((e) => e.event === 'content');
    expect(content.some((e) => e.data.role === 'assistant' && e.data.block.type === 'text')).toBe(true);
    for (const e of content)
      expect(e.data).toMatchObject({ run_id, step_id: expect.any(String), message_id: expect.any(String), timestamp: expect.any(String) });
  });

  it('resumes after Last-Event-ID with exactly the events after it; a finished run with nothing newer gets its state and the stream ends', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: 'resume me' })).body;
    await waitForRunState(api, run_id, ['SUCCEEDED']);
    const full = await openSse(`${server.apiUrl}/agent/runs/${run_id}/events`, apiKey, { 'last-event-id': '0' });
    await full.ended;
    const all = full.events.filter((e) => e.id !== undefined);
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
    expect(all[0]).toMatchObject({ event: 'state', data: { state: 'QUEUED' } });

    const resumed = await openSse(`${server.apiUrl}/agent/runs/${run_id}/events`, apiKey, { 'last-event-id': '2' });
    await resumed.ended;
    expect(resumed.events.filter((e) => e.id !== undefined)).toEqual(all.slice(2));

    const last = all.at(-1)!;
    const caughtUp = await openSse(`${server.apiUrl}/agent/runs/${run_id}/events`, apiKey, { 'last-event-id': String(last.id) });
    await caughtUp.ended;
    expect(caughtUp.events).toEqual([last]);

    // A new stream on a finished run: its terminal state, then the end.
    const fresh = await openSse(`${server.apiUrl}/agent/runs/${run_id}/events`, apiKey);
    await fresh.ended;
    expect(fresh.events).toEqual([last]);
    expect(TERMINAL).toContain(fresh.events[0]!.data.state);
  });

  it('follows a live run: a cancel from another request reaches the open stream at once and ends it', async () => {
    const quiet = await startTestServer({ database, engine: false, env: { SSE_KEEPALIVE_SECONDS: '1' } });
    try {
      const key = (await quiet.createTeamWithKey('live-watchers', 'member')).apiKey;
      const client = apiClient(quiet.apiUrl, key);
      const { run_id } = (await client.post('/agent/runs', { prompt: 'wait for me' })).body;
      const stream = await openSse(`${quiet.apiUrl}/agent/runs/${run_id}/events`, key);
      await stream.waitFor((events) => events.some((e) => e.data?.state === 'QUEUED'));
      // Keepalive comments while nothing happens (SSE_KEEPALIVE_SECONDS=1 here).
      await stream.waitFor((events) => events.some((e) => e.comment === 'keepalive'), 5000);
      const followup = await client.post(`/agent/runs/${run_id}/followups`, { message: 'hello stream' });
      expect(followup.status).toBe(200);
      await stream.waitFor((events) => events.some((e) => e.event === 'content' && e.data.block.text === 'hello stream'));
      expect((await client.post(`/agent/runs/${run_id}/cancel`)).status).toBe(200);
      await stream.ended;
      const last = stream.events.filter((e) => e.id !== undefined).at(-1)!;
      expect(last).toMatchObject({ event: 'state', data: { run_id, state: 'CANCELLED', status_message: expect.anything() } });
    } finally {
      await quiet.close();
    }
  });

  it('answers 404 for an unknown run and 400 for a malformed Last-Event-ID', async () => {
    expectProblem(await api.get('/agent/runs/00000000-0000-4000-8000-000000000000/events'), 404, 'resource_not_found');
    const { run_id } = (await api.post('/agent/runs', { prompt: 'x' })).body;
    expectProblem(await api.get(`/agent/runs/${run_id}/events`, { 'last-event-id': 'abc' }), 400, 'invalid_request');
  });
});
