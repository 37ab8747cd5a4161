/**
 * Configuration and connection errors, `budget`, `usage` (against a stub API) and `audit` (against the
 * real server), in-process (support/cli.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { problem, runCli, startCliTestServer, stubApiForFile } from './support/cli';

describe('agent-runs against a stub API', () => {
  const stub = stubApiForFile();

  describe('configuration and connection errors', () => {
    it('without an API key exits 1 naming the flag and the variable, sending nothing', async () => {
      const result = await runCli(['runs', 'list'], { AGENT_RUNS_BASE_URL: stub.url });

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('missing API key: pass --api-key or set AGENT_RUNS_API_KEY');
      expect(stub.requests).toHaveLength(0);
    });

    it('exits 2 with a clear message when the API cannot be reached', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const baseUrl = `http://127.0.0.1:${port}/api/v1`;

      const result = await runCli(['runs', 'list'], { AGENT_RUNS_API_KEY: 'k', AGENT_RUNS_BASE_URL: baseUrl });

      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: cannot reach the API at ${baseUrl}`);
      expect(result.stderr).toContain('ECONNREFUSED');
    });
  });

  describe('budget and usage', () => {
    const BUDGET = {
      max_tokens_per_month: null,
      max_cost_usd_per_month: 50,
      month: '2026-11',
      used_tokens: 1200,
      used_cost_usd: 0.42,
      exceeded: false,
      updated_at: '2026-11-02T09:00:00Z',
    };

    it('budget set changes the limit given and keeps the other one as it is', async () => {
      stub.handler = (request) => ({ json: request.method === 'PUT' ? { ...BUDGET, max_tokens_per_month: 2_000_000 } : BUDGET });

      const result = await runCli(['budget', 'set', '--max-tokens', '2000000'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /team/budget', 'PUT /team/budget']);
      expect(stub.requests[1]!.body).toEqual({ max_tokens_per_month: 2_000_000, max_cost_usd_per_month: 50 });
      expect(result.stdout).toContain('max_tokens_per_month:    2,000,000\n');
      expect(result.stdout).toContain('max_cost_usd_per_month:  $50\n');
    });

    it('budget set --max-cost none removes that limit without reading the budget first when both are given', async () => {
      stub.handler = () => ({ json: { ...BUDGET, max_cost_usd_per_month: null } });

      const result = await runCli(['budget', 'set', '--max-tokens', '10', '--max-cost', 'none', '--json'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.body])).toEqual([['PUT', { max_tokens_per_month: 10, max_cost_usd_per_month: null }]]);
      expect(JSON.parse(result.stdout)).toMatchObject({ max_cost_usd_per_month: null });
    });

    it('budget set without a limit or with a bad one is a usage error and sends nothing', async () => {
      expect(await runCli(['budget', 'set'], stub.env)).toMatchObject({ code: 1, stderr: expect.stringContaining('give --max-tokens and/or --max-cost') });
      expect((await runCli(['budget', 'set', '--max-tokens', '1.5'], stub.env)).code).toBe(1);
      expect(stub.requests).toHaveLength(0);
    });

    it('budget get shows a member the limits; a refused set prints the problem', async () => {
      stub.handler = (request) => (request.method === 'PUT' ? problem(403, 'not_authorized', 'This operation requires an admin API key.') : { json: BUDGET });

      const shown = await runCli(['budget', 'get'], stub.env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('max_tokens_per_month:    no limit\n');
      expect(shown.stdout).toContain('exceeded:                no\n');

      const refused = await runCli(['budget', 'set', '--max-tokens', '5', '--max-cost', '5'], stub.env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('This operation requires an admin API key.');
    });

    it('usage --month reads that month, in total and per model', async () => {
      stub.handler = () => ({
        json: {
          month: '2026-10',
          prompt_tokens: 1000,
          completion_tokens: 200,
          total_tokens: 1200,
          cost_usd: 0.42,
          models: [{ model_id: 'gpt-4.1', prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, cost_usd: 0.42 }],
        },
      });

      const result = await runCli(['usage', '--month', '2026-10'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.path).toBe('/usage');
      expect(stub.requests[0]!.query.get('month')).toBe('2026-10');
      expect(result.stdout).toContain('total_tokens:       1,200\n');
      expect(result.stdout).toMatch(/MODEL\s+PROMPT\s+COMPLETION\s+TOTAL\s+COST\ngpt-4\.1\s+1,000\s+200\s+1,200\s+\$0\.42/);
    });
  });
});

describe('agent-runs audit against the real server', () => {
  const live = startCliTestServer({ engine: false });

  it('audit list prints what admins changed, filtered, and never a value', async () => {
    const put = (name: string, value: string) =>
      fetch(`${live.server.apiUrl}/secrets/${name}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${live.server.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      });
    expect((await put('CLI_AUDITED', 'cli-audited-value-0123456789')).status).toBe(200);
    expect((await put('CLI_OTHER', 'cli-other-value-0123456789')).status).toBe(200);

    const listed = await runCli(['audit', 'list', '--resource-type', 'secret', '--resource-id', 'CLI_AUDITED', '--json'], live.env);
    expect(listed.code, listed.stderr).toBe(0);
    const { audit_events: events } = JSON.parse(listed.stdout) as { audit_events: Array<Record<string, any>> };
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      operation_id: 'putSecret',
      action: 'created',
      resource: { type: 'secret', id: 'CLI_AUDITED' },
      changed_fields: ['value'],
    });

    const table = await runCli(['audit', 'list', '--limit', '1'], live.env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^WHEN\s+ACTOR\s+ACTION\s+RESOURCE\s+OPERATION\s+ADDRESS\s+FIELDS$/);
    expect(lines[1]).toMatch(/\screated\s+secret CLI_OTHER\s+putSecret\s+\S*127\.0\.0\.1\s+value$/);
    expect(lines[2]).toMatch(/^more: pass --cursor \S+$/);
    expect(table.stdout).not.toContain('cli-other-value');

    const refused = await runCli(['audit', 'list', '--resource-type', 'nonsense'], live.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--resource-type <type>' argument 'nonsense' is invalid/);
  });
});
