/**
 * `GET /agent/runs/{runId}/events` against greedy and stalled clients: at most SSE_STREAMS_PER_KEY open
 * streams per API key (then 429), and a client that stops reading is disconnected instead of the server
 * buffering the run's events for it.
 */
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../../src/runs/events';
import { apiClient, expectProblem, openSse, type SseStream } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Opens a stream once the key has a free slot again: the server has seen a stream of the key end (the
 * deadline only bounds a failure).
 */
async function openOnceFree(url: string, apiKey: string): Promise<SseStream> {
  const deadline = Date.now() + 15_000;
  let stream = await openSse(url, apiKey);
  while (stream.status === 429 && Date.now() < deadline) {
    stream.close();
    await delay(50);
    stream = await openSse(url, apiKey);
  }
  return stream;
}

describe('open event streams per API key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: false, env: { SSE_STREAMS_PER_KEY: '2' } });
  });
  afterAll(() => server?.close());

  it('the stream over SSE_STREAMS_PER_KEY answers 429 with Retry-After; other keys are unaffected; a closed stream frees its place', async () => {
    const { apiKey } = await server.createTeamWithKey('greedy', 'member');
    const api = apiClient(server.apiUrl, apiKey);
    const { run_id } = (await api.post('/agent/runs', { prompt: 'watch me' })).body;
    const url = `${server.apiUrl}/agent/runs/${run_id}/events`;
    const streams: SseStream[] = [];
    try {
      for (let i = 0; i < 2; i++) streams.push(await openSse(url, apiKey));
      expect(streams.map((s) => s.status)).toEqual([200, 200]);
      const third = await openSse(url, apiKey);
      streams.push(third);
      expect(third.status).toBe(429);
      const refused = await api.get(`/agent/runs/${run_id}/events`);
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.body.detail).toMatch(/event streams/);

      // Another API key has its own count.
      const other = await server.createTeamWithKey('other-watcher', 'member');
      const otherRun = (await apiClient(server.apiUrl, other.apiKey).post('/agent/runs', { prompt: 'mine' })).body.run_id;
      const otherStream = await openSse(`${server.apiUrl}/agent/runs/${otherRun}/events`, other.apiKey);
      streams.push(otherStream);
      expect(otherStream.status).toBe(200);

      // Closing a stream frees its place once the server has seen the client go.
      streams[0]!.close();
      const again = await openOnceFree(url, apiKey);
      streams.push(again);
      expect(again.status).toBe(200);
    } finally {
      streams.forEach((s) => s.close());
    }
  });
});

describe('a client that stops reading', () => {
  const EVENTS = 48;
  const TEXT_BYTES = 512 * 1024; // 48 × 512 KB = 24 MB of content waiting for the client
  let server: TestServer;
  beforeAll(async () => {
    // SSE_KEEPALIVE_SECONDS=1: a client that takes nothing for two keepalive intervals (2 s) is disconnected.
    // One stream per key: the key's next stream is accepted once the server has dropped the stalled one.
    server = await startTestServer({ engine: false, env: { SSE_KEEPALIVE_SECONDS: '1', SSE_STREAMS_PER_KEY: '1' } });
  });
  afterAll(() => server?.close());

  it('is disconnected after two keepalive intervals instead of the server buffering every event for it', async () => {
    const { apiKey, teamId } = await server.createTeamWithKey('stalled', 'member');
    const { run_id } = (await apiClient(server.apiUrl, apiKey).post('/agent/runs', { prompt: 'a lot of output' })).body;
    const text = 'x'.repeat(TEXT_BYTES);
    for (let i = 0; i < EVENTS; i++) {
      await appendEvent(server.ctx.db, { id: run_id, team_id: teamId }, 'content', {
        run_id,
        step_id: 'step_1',
        message_id: `msg_${i}`,
        role: 'assistant',
        timestamp: '2026-06-01T12:00:00.000Z',
        block: { type: 'text', text },
      });
    }
    server.ctx.runSignals.notifyRunEvent(teamId, run_id);

    const target = new URL(`${server.apiUrl}/agent/runs/${run_id}/events`);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(
        { host: target.hostname, port: target.port, path: target.pathname, headers: { authorization: `Bearer ${apiKey}` }, agent: false },
        resolve,
      );
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    res.pause(); // never reads: only the kernel's socket buffers take bytes
    const next = await openOnceFree(target.href, apiKey);
    next.close();
    expect(next.status).toBe(200);

    // Now read whatever reached the client and see whether the server is still there.
    let received = 0;
    const closed = new Promise<boolean>((resolve) => {
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', () => resolve(true));
      res.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000);
    });
    res.resume();
    const wasClosed = await closed;
    res.destroy();
    expect(wasClosed).toBe(true);
    // What had left the server before it gave up: socket buffers and one event, not the 24 MB.
    expect(received).toBeLessThan((EVENTS * TEXT_BYTES) / 2);
  });
});
