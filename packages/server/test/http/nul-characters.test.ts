/**
 * A NUL character (U+0000) anywhere in a REST request answers 400 naming where it is, on SQLite and
 * PostgreSQL alike (PostgreSQL's text cannot hold one: it was a 500 "invalid byte sequence"), and nothing
 * of the request is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient, type HttpResponse } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('NUL characters in REST input (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ database, engine: false });
    api = apiClient(server.apiUrl, server.adminKey);
  });
  afterAll(() => server?.close());

  const refusedAt = (res: HttpResponse, path: string) => {
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors).toEqual([expect.objectContaining({ path })]);
  };

  it('in a body: a prompt, a title, a name, a nested MCP env value, a filter and an object key', async () => {
    refusedAt(await api.post('/agent/runs', { prompt: 'fix\u0000it' }), '$.prompt');
    refusedAt(await api.post('/agent/runs', { prompt: 'ok', title: '\u0000' }), '$.title');
    refusedAt(
      await api.post('/agent/runs', { prompt: 'ok', config: { mcp_servers: { tools: { command: 'srv', env: { TOKEN: 'a\u0000b' } } } } }),
      '$.config.mcp_servers.tools.env.TOKEN',
    );
    refusedAt(await api.post('/agent/runs', { prompt: 'ok', metadata: { 'k\u0000': 'v' } }), '$.metadata.k\\u0000');
    refusedAt(await api.post('/factories', { name: 'sup\u0000port' }), '$.name');
    refusedAt(await api.request('PUT', '/secrets/NUL_SECRET', { body: { value: 'v\u0000' } }), '$.value');
    const factory = (await api.post('/factories', { name: 'nul-filters' })).body.uid as string;
    refusedAt(
      await api.post(`/factories/${factory}/automations`, {
        name: 'triage',
        prompt: 'p',
        triggers: [{ provider: 'webhook', event: 'received', filter: { payload: { priority: ['hi\u0000gh'] } } }],
      }),
      '$.triggers[0].filter.payload.priority[0]',
    );
    expect((await api.get('/agent/runs')).body.runs).toEqual([]);
    expect((await api.get('/factories')).body.factories.map((f: { name: string }) => f.name)).toEqual(['nul-filters']);
    expect((await api.get('/secrets')).body.secrets.map((s: { name: string }) => s.name)).not.toContain('NUL_SECRET');
  });

  it('in a path id and in a query value', async () => {
    refusedAt(await api.get('/agent/runs/%00'), 'path');
    refusedAt(await api.get('/factories/fac_%00/webhooks'), 'path');
    refusedAt(await api.get('/agent/runs?name=a%00b'), 'query.name');
    refusedAt(await api.get('/agent/runs?q=%00'), 'query.q');
  });
});
