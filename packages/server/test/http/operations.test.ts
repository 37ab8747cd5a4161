import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { apiClient } from '../support/http';

describe('operational endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: false });
  });
  afterAll(() => server?.close());

  it('GET /healthz answers {"status":"ok"} without credentials', async () => {
    const res = await apiClient(server.baseUrl).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /metrics counts REST requests by operationId and status, whoever answers them, and gauges runs by state', async () => {
    const api = apiClient(server.apiUrl, server.adminKey);
    expect((await api.post('/agent/runs', { prompt: 'count me' })).status).toBe(200);
    expect((await api.get('/agent/runs')).status).toBe(200);
    expect((await apiClient(server.apiUrl, 'not-a-key').get('/agent/runs')).status).toBe(401);
    expect((await api.get('/agent/runs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const res = await fetch(`${server.baseUrl}/metrics`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="listRuns",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="listRuns",status="401"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="getRun",status="404"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="createRun",status="200"\} 1$/m);
    // One label per operation: never its path, with or without /api/v1.
    expect(text).not.toMatch(/route="[^"]*agent/);
    expect(text).toMatch(/^runs_in_state\{state="QUEUED"\} 1$/m);
  });

  it('GET /readyz is 200 when the database answers and every migration is applied, else 503 with Retry-After', async () => {
    const ready = await apiClient(server.baseUrl).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      roles: ['api', 'ingress', 'worker'],
      checks: { database: 'ok', migrations: 'ok', secrets_key: 'ok' },
      sandbox: server.ctx.sandbox.status,
    });

    // Pretend the latest migration has not been applied (as after deploying code before migrating).
    const applied = await server.ctx.db
      .withoutPlugins()
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    await server.ctx.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', (applied as { name: string }).name as never)
      .execute();
    const notReady = await apiClient(server.baseUrl).get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(notReady.body).toEqual({
      status: 'unavailable',
      roles: ['api', 'ingress', 'worker'],
      checks: { database: 'ok', migrations: 'failing', secrets_key: 'ok' },
      sandbox: server.ctx.sandbox.status,
    });
  });
});
