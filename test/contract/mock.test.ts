// `pnpm mock` is Prism over openapi/v1.yaml: integrators get the contract's examples back and see
// invalid requests rejected. Prism serves the REST paths at its root (it ignores the /api/v1 server path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM helper shared with the Python test runner
import { startMock } from '../../scripts/lib/services.mjs';

describe('Prism mock of the contract', () => {
  let mock: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());

  const headers = { authorization: 'Bearer ar_live_example', 'content-type': 'application/json' };

  it('serves the example list of runs', async () => {
    const response = await fetch(`${mock.url}/agent/runs`, { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { runs: Array<{ run_id: string; state: string }>; page_info: object };
    expect(body.runs.length).toBeGreaterThan(0);
    expect(body.runs[0]).toMatchObject({ run_id: expect.any(String), state: expect.any(String) });
    expect(body.page_info).toHaveProperty('has_next_page');
  });

  it('serves the example answer of run creation for a valid request', async () => {
    const response = await fetch(`${mock.url}/agent/runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'Summarise the open issues', config: { name: 'triage' } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ run_id: expect.any(String), task_id: expect.any(String), state: 'QUEUED' });
  });

  it('rejects a request that breaks the contract', async () => {
    const response = await fetch(`${mock.url}/agent/runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'no prompt', config: { mcp_servers: { both: { command: 'x', url: 'http://y' } } } }),
    });
    expect([400, 422]).toContain(response.status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    // Prism answers with the contract's own problem example and lists what was wrong in sl-violations.
    expect(response.headers.get('sl-violations')).toMatch(/prompt/);
  });

  it('requires the bearer credential on REST operations', async () => {
    const response = await fetch(`${mock.url}/agent/runs`);
    expect(response.status).toBe(401);
  });
});
