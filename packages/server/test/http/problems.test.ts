import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../support/server';
import { apiClient, expectProblem, type ApiClient } from '../support/http';

describe('problem answers (RFC 7807) and request ids', () => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ engine: false, env: { REST_MAX_BODY_BYTES: '4096' } });
    api = apiClient(server.apiUrl, server.adminKey);
  });
  afterAll(() => server?.close());

  it('answers an unknown path with 404 resource_not_found, inside and outside /api/v1', async () => {
    const inside = await api.get('/no/such/thing');
    expectProblem(inside, 404, 'resource_not_found');
    expect(inside.body.instance).toBe('/api/v1/no/such/thing');
    const outside = await apiClient(server.baseUrl).get('/nothing-here?x=1');
    expectProblem(outside, 404, 'resource_not_found');
    expect(outside.body.instance).toBe('/nothing-here');
  });

  it('answers a path that does not percent-decode with 400 invalid_request, with or without a key', async () => {
    for (const path of ['/agent/runs/%', '/agent/runs/%F0%F0%F0', '/factories/%zz/webhooks']) {
      for (const client of [api, apiClient(server.apiUrl)]) {
        const res = await client.get(path);
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.detail).toContain('percent-encoded');
      }
    }
    const outside = await apiClient(server.baseUrl).get('/runs/%E0%A4%A');
    expectProblem(outside, 400, 'invalid_request');
    const ingress = await apiClient(server.baseUrl).post('/webhooks/w/%', {});
    expect(ingress.status).toBeLessThan(500);
  });

  it('echoes a safe x-request-id as the trace id and replaces an unsafe one', async () => {
    const echoed = await api.get('/agent/runs/00000000-0000-4000-8000-000000000000', { 'x-request-id': 'client-trace.42' });
    expect(echoed.headers.get('x-request-id')).toBe('client-trace.42');
    expectProblem(echoed, 404, 'resource_not_found');
    expect(echoed.body.trace_id).toBe('client-trace.42');

    const replaced = await api.get('/agent/runs', { 'x-request-id': 'has spaces and "quotes"' });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
    const tooLong = await api.get('/agent/runs', { 'x-request-id': 'a'.repeat(129) });
    expect(tooLong.headers.get('x-request-id')).not.toBe('a'.repeat(129));
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const res = await api.request('POST', '/agent/runs', { rawBody: '{"prompt": "x",', headers: { 'content-type': 'application/json' } });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.detail).toMatch(/not valid JSON/);
  });

  it('answers a body over the REST limit with 413 payload_too_large', async () => {
    const res = await api.post('/agent/runs', { prompt: 'x'.repeat(5000) });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('names each offending parameter or field in errors[] with $-rooted body paths', async () => {
    const limit = await api.get('/agent/runs?limit=0');
    expectProblem(limit, 400, 'invalid_request');
    expect(limit.body.errors).toEqual([expect.objectContaining({ path: 'query.limit' })]);

    const unknownParam = await api.get('/agent/runs?colour=blue');
    expectProblem(unknownParam, 400, 'invalid_request');
    expect(unknownParam.body.errors).toEqual([expect.objectContaining({ path: 'query.colour' })]);
    // Keys of a deepObject parameter are the parameter's; other bracketed names are not.
    expect((await api.get('/agent/runs?metadata[team]=web')).status).toBe(200);
    expectProblem(await api.get('/agent/runs?colour[x]=blue'), 400, 'invalid_request');

    const body = await api.post('/agent/runs', { prompt: 'x', config: { max_turns: 500 } });
    expectProblem(body, 400, 'invalid_request');
    expect(body.body.errors).toEqual([expect.objectContaining({ path: '$.config.max_turns' })]);
  });

  it('answers a method the path does not support with 405 method_not_allowed', async () => {
    const res = await api.request('DELETE', '/agent/runs');
    expectProblem(res, 405, 'method_not_allowed');
  });

  it('answers a corrupt gzip, deflate or br body with 400 invalid_request; a sound one is read', async () => {
    const json = JSON.stringify({ prompt: 'compressed' });
    const bodies: Array<[string, Buffer]> = [
      ['gzip', Buffer.from('not gzip at all')],
      ['gzip', gzipSync(json).subarray(0, 12)],
      ['deflate', Buffer.from('nor deflate')],
      ['br', Buffer.from('garbage, not brotli')],
    ];
    for (const [encoding, rawBody] of bodies) {
      const res = await api.request('POST', '/agent/runs', { rawBody, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.detail).toContain(encoding);
    }
    for (const [encoding, rawBody] of [
      ['gzip', gzipSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const res = await api.request('POST', '/agent/runs', { rawBody, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
      expect(res.status).toBe(200);
    }
  });

  it('turns an unexpected failure into 500 internal_error without internals on the wire', async () => {
    const created = await api.post('/agent/runs', { prompt: 'break me' });
    expect(created.status).toBe(200);
    // A real fault below the API: the table the answer needs is gone.
    await sql`drop table run_attachments`.execute(server.ctx.db);
    const res = await api.get(`/agent/runs/${created.body.run_id}`);
    expectProblem(res, 500, 'internal_error');
    expect(res.body.retryable).toBe(true);
    expect(res.text).not.toMatch(/run_attachments|sqlite|select|SQL/i);
  });
});
