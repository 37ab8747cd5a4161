/**
 * What a first visitor meets outside the API, over real HTTP: `GET /` and any unknown path answer a 404
 * problem naming the API root, and a run's session_link opens a page that shows the run id and its API URLs
 * only (no key, so nothing the API protects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { apiClient, expectProblem, type ApiClient } from '../support/http';

describe('outside the API: the 404 names the API root; session links open the run page', () => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ engine: false });
    api = apiClient(server.apiUrl, server.adminKey);
  });
  afterAll(() => server?.close());

  it('GET / and other paths outside /api/v1 answer 404 problem+json naming the API root', async () => {
    for (const path of ['/', '/favicon.ico', '/dashboard/runs', '/webhooks', '/api', '/sessions']) {
      const res = await apiClient(server.baseUrl).get(path);
      expectProblem(res, 404, 'resource_not_found');
      expect(res.body.detail, path).toContain(`The REST API is at ${server.apiUrl} `);
      expect(res.body.instance).toBe(path);
    }
    // Inside the API the answer stays about the path.
    expect((await api.get('/no/such/thing')).body.detail).not.toContain('The REST API is at');
  });

  it("a run's session_link opens a page with the run id and its API URLs — no prompt, no state", async () => {
    const prompt = 'Summarise the incident report PROMPT-MARKER-7f3a';
    const created = await api.post('/agent/runs', { prompt, title: 'TITLE-MARKER-9c1e' });
    expect(created.status).toBe(200);
    const runId = created.body.run_id as string;
    const got = await api.get(`/agent/runs/${runId}`);
    expect(got.status, got.text).toBe(200);
    const run = got.body;
    expect(run.session_link).toBe(`${server.baseUrl}/sessions/${run.session_id}`);

    // No Authorization header: what a browser sends.
    const res = await fetch(run.session_link);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain(runId);
    expect(html).toContain(`${server.apiUrl}/agent/runs/${runId}`);
    expect(html).toContain(`${server.apiUrl}/agent/runs/${runId}/events`);
    expect(html).toMatch(/dashboard/i);
    for (const secret of ['PROMPT-MARKER-7f3a', 'TITLE-MARKER-9c1e', run.state, server.adminKey]) expect(html).not.toContain(secret);
    // No client JavaScript and nothing loaded from elsewhere.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|@import/i);
  });

  it('an unknown or malformed session id answers a 404 page', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%3Cscript%3E']) {
      const res = await fetch(`${server.baseUrl}/sessions/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain(`${server.apiUrl}/agent/runs`);
      expect(html).not.toContain('<script');
    }
  });
});
