/**
 * `GET /agent/run-events` (streamTeamRunEvents) over real HTTP: every state change of every run of the
 * caller's team as it happens (a new run's first state included), never another team's, no ids; it shares
 * the per-key stream limit with the run streams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectProblem, openSse, waitForRunState, type SseEvent, type SseStream } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

const statesOf = (events: SseEvent[], runId: string): string[] =>
  events.filter((e) => e.event === 'state' && e.data.run_id === runId).map((e) => e.data.state as string);

describe('the team-wide run state stream', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { SSE_STREAMS_PER_KEY: '2' } });
  });
  afterAll(() => server?.close());

  it("sends every state change of the team's runs, from QUEUED on, and nothing of another team's", async () => {
    const team = await server.createTeamWithKey('watchers', 'member');
    const stranger = await server.createTeamWithKey('strangers', 'member');
    const api = apiClient(server.apiUrl, team.apiKey);
    const strangerApi = apiClient(server.apiUrl, stranger.apiKey);
    const stream = await openSse(`${server.apiUrl}/agent/run-events`, team.apiKey);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const first = (await api.post('/agent/runs', { prompt: 'one' })).body.run_id as string;
      const theirs = (await strangerApi.post('/agent/runs', { prompt: 'not yours' })).body.run_id as string;
      const second = (await api.post('/agent/runs', { prompt: 'two' })).body.run_id as string;
      await stream.waitFor((events) => [first, second].every((id) => statesOf(events, id).includes('SUCCEEDED')));
      for (const id of [first, second]) expect(statesOf(stream.events, id)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);

      // A follow-up re-queues a finished run: its changes come again.
      expect((await api.post(`/agent/runs/${first}/followups`, { message: 'again' })).status).toBeLessThan(300);
      await stream.waitFor((events) => statesOf(events, first).length === 8);
      expect(statesOf(stream.events, first).slice(4)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);

      await waitForRunState(strangerApi, theirs, ['SUCCEEDED']);
      expect(stream.events.filter((e) => e.event === 'state').every((e) => e.data.run_id !== theirs)).toBe(true);
      const event = stream.events.find((e) => e.event === 'state')!;
      expect(event.id).toBeUndefined();
      expect(Object.keys(event.data).sort()).toEqual(['run_id', 'state', 'updated_at']);
    } finally {
      stream.close();
    }
  });

  it("counts toward the key's open event streams with the run streams (SSE_STREAMS_PER_KEY), then 429", async () => {
    const team = await server.createTeamWithKey('greedy-watchers', 'member');
    const api = apiClient(server.apiUrl, team.apiKey);
    const { run_id } = (await api.post('/agent/runs', { prompt: 'watch me' })).body;
    const streams: SseStream[] = [];
    try {
      for (let i = 0; i < 2; i++) streams.push(await openSse(`${server.apiUrl}/agent/run-events`, team.apiKey));
      expect(streams.map((s) => s.status)).toEqual([200, 200]);
      const refused = await api.get('/agent/run-events');
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.body.detail).toMatch(/event streams/);
      expectProblem(await api.get(`/agent/runs/${run_id}/events`), 429, 'rate_limited');
    } finally {
      streams.forEach((s) => s.close());
    }
  });
});

describe('event streams of a revoked API key', () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: false, env: { SSE_KEY_RECHECK_SECONDS: '1' } });
    other = await startTestServer({ sharing: server, engine: false, env: { SSE_KEY_RECHECK_SECONDS: '1' } });
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('end, in this process and in another one sharing the database, while the streams of other keys go on', async () => {
    const team = await server.createTeamWithKey('revokers', 'admin');
    const admin = apiClient(server.apiUrl, team.apiKey);
    const member = (await admin.post('/api-keys', { name: 'watcher', role: 'member' })).body;
    const { run_id } = (await admin.post('/agent/runs', { prompt: 'stays queued' })).body;
    const streams = [
      await openSse(`${server.apiUrl}/agent/run-events`, member.api_key),
      await openSse(`${other.apiUrl}/agent/runs/${run_id}/events`, member.api_key),
    ];
    const kept = await openSse(`${other.apiUrl}/agent/run-events`, team.apiKey);
    try {
      expect([...streams, kept].map((s) => s.status)).toEqual([200, 200, 200]);
      expect((await admin.delete(`/api-keys/${member.key_id}`)).status).toBe(204);
      await Promise.all(streams.map((s) => s.ended));
      // Created through the kept stream's own process: on SQLite a process hears only of its own commits.
      const later = (await apiClient(other.apiUrl, team.apiKey).post('/agent/runs', { prompt: 'seen by the kept stream' })).body.run_id as string;
      await kept.waitFor((events) => statesOf(events, later).includes('QUEUED'));
    } finally {
      [...streams, kept].forEach((s) => s.close());
    }
  });
});
