import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { apiClient, expectProblem } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe('per-API-key REST request budget', () => {
  let server: TestServer;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:10Z'));
  beforeAll(async () => {
    server = await startTestServer({ engine: false, clock, env: { REST_REQUESTS_PER_MINUTE: '3', REST_RATE_WINDOW_SECONDS: '60' } });
  });
  afterAll(() => server?.close());

  it('answers 429 rate_limited with Retry-After once a key spent its budget, per key, until the window turns', async () => {
    const a = apiClient(server.apiUrl, (await server.createTeamWithKey('busy', 'member')).apiKey);
    const b = apiClient(server.apiUrl, (await server.createTeamWithKey('calm', 'member')).apiKey);
    for (let i = 0; i < 3; i++) expect((await a.get('/agent/runs')).status).toBe(200);
    const limited = await a.post('/agent/runs', { prompt: 'one too many' });
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.body.retryable).toBe(true);
    expect(limited.headers.get('retry-after')).toBe('50');
    expect((await b.get('/agent/runs')).status).toBe(200);

    clock.advance(50_000);
    expect((await a.get('/agent/runs')).status).toBe(200);
  });
});
