// `pnpm mock` (scripts/mock.mjs) is Prism over openapi/v1.yaml behind a small proxy: integrators get the
// contract's examples under /api/v1, as from the server, and a request that breaks the contract gets the
// server's own answer (400 invalid_request problem). REST paths at the root still work.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
// @ts-expect-error -- plain ESM helper shared with the Python test runner
import { startMock } from '../../scripts/lib/services.mjs';

const spec = YAML.parse(readFileSync(path.resolve(__dirname, '../../openapi/v1.yaml'), 'utf8'));
/** The first example of getRun's 200 answer, which Prism serves. */
const getRunExample = Object.values(
  spec.paths['/agent/runs/{runId}'].get.responses['200'].content['application/json'].examples as Record<string, { value: unknown }>,
)[0]!.value;

describe('Prism mock of the contract', () => {
  let mock: { url: string; apiUrl: string; stop(): Promise<void> };

  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());

  const headers = { authorization: 'Bearer ar_live_example', 'content-type': 'application/json' };

  it('serves the example list of runs', async () => {
    const response = await fetch(`${mock.apiUrl}/agent/runs`, { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { runs: Array<{ run_id: string; state: string }>; page_info: object };
    expect(body.runs.length).toBeGreaterThan(0);
    expect(body.runs[0]).toMatchObject({ run_id: expect.any(String), state: expect.any(String) });
    expect(body.page_info).toHaveProperty('has_next_page');
  });

  it('serves the example answer of run creation for a valid request', async () => {
    const response = await fetch(`${mock.apiUrl}/agent/runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'Summarise the open issues', config: { name: 'triage' } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ run_id: expect.any(String), task_id: expect.any(String), state: 'QUEUED' });
  });

  it('rejects a request that breaks the contract', async () => {
    const response = await fetch(`${mock.apiUrl}/agent/runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'an MCP server both local and remote', config: { mcp_servers: { both: { command: 'x', url: 'http://y' } } } }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    // Prism's list of what was wrong stays in sl-violations.
    expect(response.headers.get('sl-violations')).toMatch(/mcp_servers/);
    expect(await response.json()).toMatchObject({ status: 400, error: expect.stringContaining('$.config.mcp_servers.both') });
  });

  it("serves a run under /api/v1 as the contract's example", async () => {
    const runId = '3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c';
    const response = await fetch(`${mock.apiUrl}/agent/runs/${runId}`, { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(getRunExample);
  });

  it('answers a wrong type as the server does: 400 invalid_request', async () => {
    for (const [body, path, message] of [['{"prompt": 5}', '$.prompt', 'must be string']] as const) {
      const response = await fetch(`${mock.apiUrl}/agent/runs`, { method: 'POST', headers, body });
      expect(response.status, body).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem).toEqual({
        type: 'https://agent-runs.dev/errors/invalid_request',
        title: 'Invalid request',
        status: 400,
        detail: `The request is invalid: ${path}: ${message}.`,
        instance: '/api/v1/agent/runs',
        error: `Invalid request: The request is invalid: ${path}: ${message}.`,
        retryable: false,
        trace_id: response.headers.get('x-request-id'),
        errors: [{ path, message }],
      });
    }
  });

  it('answers a bad query parameter, a body that is not JSON, an unknown path and method as the server does', async () => {
    const limit = await fetch(`${mock.apiUrl}/agent/runs?limit=abc`, { headers });
    expect(limit.status).toBe(400);
    expect(await limit.json()).toMatchObject({ error: 'Invalid request: The request is invalid: query.limit: must be integer.' });
    const notJson = await fetch(`${mock.apiUrl}/agent/runs`, { method: 'POST', headers, body: 'not json' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ detail: 'The request body is not valid JSON.' });
    const unknown = await fetch(`${mock.apiUrl}/no-such-path`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'https://agent-runs.dev/errors/resource_not_found', detail: 'No such endpoint.' });
    const method = await fetch(`${mock.apiUrl}/agent/runs`, { method: 'DELETE', headers });
    expect(method.status).toBe(405);
    expect(method.headers.get('content-type')).toContain('application/problem+json');
  });

  it('keeps the ingress and the operational endpoints at the root, as the server does', async () => {
    expect((await fetch(`${mock.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${mock.apiUrl}/healthz`)).status).toBe(404);
  });

  it('still serves the REST paths at the root', async () => {
    const response = await fetch(`${mock.url}/agent/runs`, { headers });
    expect(response.status).toBe(200);
  });

  it('requires the bearer credential on REST operations', async () => {
    const response = await fetch(`${mock.apiUrl}/agent/runs`);
    expect(response.status).toBe(401);
  });
});
