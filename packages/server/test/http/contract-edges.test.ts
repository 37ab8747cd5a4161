/**
 * The server and openapi/v1.yaml agree at the edges the contract fuzzer (`pnpm test:fuzz`) probes: what the
 * server refuses the contract's schemas refuse too, with the answer the contract documents, and what the
 * schemas allow the server takes.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRestSpec } from '../../src/http/validator';
import { apiClient, expectProblem, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

type Schema = { type?: string; minLength?: number; pattern?: string; format?: string; enum?: unknown[]; $ref?: string; items?: Schema };
type Parameter = { name: string; in: string; schema?: Schema; $ref?: string };
type Operation = { operationId: string; parameters?: Parameter[]; responses: Record<string, unknown> };
type PathItem = Record<string, Operation> & { parameters?: Parameter[] };

const spec = loadRestSpec() as unknown as {
  paths: Record<string, PathItem>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, { properties: Record<string, Schema> }> };
};
const resolveParameter = (p: Parameter): Parameter => (p.$ref ? spec.components.parameters[p.$ref.split('/').pop()!]! : p);
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => {
    const operation = item[method];
    if (!operation) return [];
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolveParameter);
    return [{ path, method, operation, parameters }];
  }),
);

/** A request with a method fetch refuses to send (TRACE) or any other, through node:http. */
function rawRequest(url: string, method: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('contract and server agree at the edges', () => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ engine: false });
    api = apiClient(server.apiUrl, server.adminKey);
  });
  afterAll(() => server?.close());

  it('Idempotency-Key: the keys the contract pattern refuses are the keys the server refuses (400 naming the header)', async () => {
    const pattern = new RegExp(spec.components.parameters.IdempotencyKey!.schema!.pattern!);
    const keys = ['k', 'a-b_c.d~!', 'x'.repeat(255), 'with space', 'tab\there', 'ünïcode'];
    for (const key of keys) {
      // fetch refuses header values outside Latin-1 only; these all go out as they are.
      const res = await api.request('POST', '/factories', { body: { name: `idem ${keys.indexOf(key)}` }, headers: { 'idempotency-key': key } });
      if (pattern.test(key)) {
        expect(res.status, key).toBe(201);
      } else {
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.errors).toEqual([{ path: expect.stringMatching(/^header\.idempotency-key$/i), message: expect.any(String) }]);
      }
    }
  });

  it('every string query parameter of the contract is non-empty by schema, and every list answers an empty one with 400 naming it', async () => {
    const lists = operations.filter(({ method, parameters }) => method === 'get' && parameters.some((p) => p.name === 'cursor'));
    expect(lists.length).toBeGreaterThan(5);
    for (const { path, parameters } of operations) {
      for (const p of parameters.filter((q) => q.in === 'query' && q.schema?.type === 'string')) {
        const schema = p.schema!;
        expect(schema.minLength ?? (schema.format || schema.enum ? 1 : 0), `${path} ?${p.name}=`).toBeGreaterThanOrEqual(1);
      }
    }
    const factory = await api.post('/factories', { name: 'empty-query' });
    const webhook = await api.post(`/factories/${factory.body.uid}/webhooks`, { name: 'empty-query', auth_mode: 'url_token' });
    for (const { path } of lists) {
      const url = path.replace('{factoryUid}', factory.body.uid).replace('{webhookUid}', webhook.body.uid);
      const res = await api.get(`${url}?cursor=`);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors, path).toEqual([{ path: 'query.cursor', message: expect.any(String) }]);
    }
    for (const filter of ['name', 'model_id', 'creator', 'factory_uid', 'automation_id']) {
      const res = await api.get(`/agent/runs?${filter}=`);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors).toEqual([{ path: `query.${filter}`, message: expect.any(String) }]);
    }
    // Reserved characters a query may hold unencoded (RFC 3986), `+` as a space as form encoding sends it.
    const raw = await api.get("/agent/runs?created_after=2000-01-01T00:00:00Z&name=my+review&model_id=a/b:c@d!$'()*,;");
    expect(raw.status).toBe(200);
    const spaced = await api.post('/agent/runs', { prompt: 'x', config: { name: 'my review' } });
    expect((await api.get('/agent/runs?name=my+review')).body.runs.map((r: { run_id: string }) => r.run_id)).toEqual([spaced.body.run_id]);
    // A cursor the server did not issue: the 400 the Cursor parameter documents.
    expectProblem(await api.get('/agent/runs?cursor=0'), 400, 'invalid_request');
  });

  it('run attachments: data that is not base64 and an over-long name answer the documented 400; any mime_type is served as itself', async () => {
    const attachmentData = spec.components.schemas.RunAttachmentInput!.properties.data!;
    expect(new RegExp(attachmentData.pattern!).test('bm90ZXM=')).toBe(true);
    expect(new RegExp(attachmentData.pattern!).test('not base64!')).toBe(false);
    const notBase64 = await api.post('/agent/runs', { prompt: 'x', attachments: [{ file_name: 'a.txt', mime_type: 'text/plain', data: 'not base64!' }] });
    expectProblem(notBase64, 400, 'invalid_request');
    expect(notBase64.body.errors[0].path).toMatch(/attachments\[0\]\.data|attachments\/0\/data/);

    const run = await api.post('/agent/runs', { prompt: 'x', attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: 'bm90ZXM=' }] });
    expect(run.status).toBe(200);
    const download = await api.get(`/agent/runs/${run.body.run_id}/attachments/notes.txt`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(download.text).toBe('notes');

    const getAttachment = operations.find((o) => o.operation.operationId === 'getRunAttachment')!;
    expect(Object.keys(getAttachment.operation.responses)).toContain('400');
    const tooLong = await api.get(`/agent/runs/${run.body.run_id}/attachments/${'n'.repeat(256)}`);
    expectProblem(tooLong, 400, 'invalid_request');
    expect(tooLong.body.errors).toEqual([{ path: 'path.name', message: expect.any(String) }]);
  });

  it('config.environment_id: empty is refused by the schema, an unknown one by the server, both 400 on run create', async () => {
    expect(spec.components.schemas.AmbientAgentConfig!.properties.environment_id!.minLength).toBe(1);
    const empty = await api.post('/agent/runs', { prompt: 'x', config: { environment_id: '' } });
    expectProblem(empty, 400, 'invalid_request');
    expect(empty.body.errors).toEqual([{ path: '$.config.environment_id', message: expect.any(String) }]);
    const unknown = await api.post('/agent/runs', { prompt: 'x', config: { environment_id: 'env_01hzx3k4m5n6p7q8r9s0t1v2w3' } });
    expectProblem(unknown, 400, 'invalid_request');
    const environment = await api.post('/agent/environments', { name: 'edges' });
    const known = await api.post('/agent/runs', { prompt: 'x', config: { environment_id: environment.body.uid } });
    expect(known.status).toBe(200);
  });

  it('a prompt or follow-up message of only whitespace is refused by the contract pattern and the server alike', async () => {
    for (const schema of ['RunAgentRequest', 'DispatchFactoryRunRequest', 'RunFollowupRequest']) {
      const field = schema === 'RunFollowupRequest' ? 'message' : 'prompt';
      const pattern = new RegExp(spec.components.schemas[schema]!.properties[field]!.pattern!);
      expect(pattern.test(' \n\t'), schema).toBe(false);
      expect(pattern.test(' x '), schema).toBe(true);
    }
    const factory = await api.post('/factories', { name: 'blank-prompts' });
    const run = await api.post('/agent/runs', { prompt: 'x' });
    const blanks = [
      await api.post('/agent/runs', { prompt: '\n' }),
      await api.post(`/factories/${factory.body.uid}/runs`, { prompt: '\n' }),
      await api.post(`/agent/runs/${run.body.run_id}/followups`, { message: ' ' }),
    ];
    for (const res of blanks) expectProblem(res, 400, 'invalid_request');
  });

  it('config.skill_spec: the contract pattern refuses exactly the specs whose syntax the server refuses', async () => {
    const pattern = new RegExp(spec.components.schemas.AmbientAgentConfig!.properties.skill_spec!.pattern!);
    const specs = [
      'acme/skills:code-review',
      'acme/skills:path/to/SKILL.md',
      'a.b/c_d:.hidden/x.md',
      'acme/skills:../x.md',
      'acme/skills:a/./b.md',
      '-a/b:c',
      'a/b:x y',
      'a/b:/abs.md',
      'Q\u00e9/x:g',
    ];
    for (const skillSpec of specs) {
      const res = await api.post('/agent/runs', { prompt: 'x', config: { skill_spec: skillSpec } });
      if (pattern.test(skillSpec)) {
        // The syntax is fine; with no skills directory the skill does not resolve (a 400 that is not about syntax).
        expect(res.body?.detail ?? '', skillSpec).not.toMatch(/is invalid|must match pattern/);
      } else {
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.errors, skillSpec).toEqual([{ path: '$.config.skill_spec', message: expect.any(String) }]);
      }
    }
  });

  it('Last-Event-ID: the contract maximum is the server maximum (a larger id answers 400 naming the header)', async () => {
    const header = operations.find((o) => o.operation.operationId === 'streamRunEvents')!.parameters.find((p) => p.name === 'Last-Event-ID')!;
    const maximum = (header.schema as { maximum: number }).maximum;
    const run = await api.post('/agent/runs', { prompt: 'x' });
    await api.post(`/agent/runs/${run.body.run_id}/cancel`);
    const tooLarge = await api.get(`/agent/runs/${run.body.run_id}/events`, { 'last-event-id': String(maximum + 1) });
    expectProblem(tooLarge, 400, 'invalid_request');
    expect(tooLarge.body.errors).toEqual([{ path: expect.stringMatching(/^header\.last-event-id$/i), message: expect.any(String) }]);
    const largest = await api.get(`/agent/runs/${run.body.run_id}/events`, { 'last-event-id': String(maximum) });
    expect(largest.status).toBe(200);
  });

  it('cursor: every cursor the server issues fits the contract pattern; one outside it, or one fitting it that was not issued, answers 400 naming it', async () => {
    const cursor = spec.components.parameters.Cursor!.schema!;
    const pattern = new RegExp(cursor.pattern!);
    for (const name of ['cursor-a', 'cursor-b']) await api.post('/factories', { name });
    const { next_cursor: issued } = (await api.get('/factories?limit=1')).body.page_info;
    expect(pattern.test(issued)).toBe(true);
    expect((await api.get(`/factories?limit=1&cursor=${issued}`)).status).toBe(200);
    for (const refused of ['a%2Bb', 'x'.repeat(2049), 'eyJrIjoibmFtZSJ9']) {
      const res = await api.get(`/factories?cursor=${refused}`);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors, refused).toEqual([{ path: 'query.cursor', message: expect.any(String) }]);
    }
  });

  it('repos[].url: every URL the contract pattern accepts is one the server clones from; the others answer 400 naming it', async () => {
    type EnvironmentSchema = { properties: { repos: { items: { $ref: string } } } };
    const repository = (spec.components.schemas.CreateEnvironmentRequest as unknown as EnvironmentSchema).properties.repos.items.$ref.split('/').pop()!;
    const pattern = new RegExp(spec.components.schemas[repository]!.properties.url!.pattern!, 'u');
    const urls = [
      'https://example.com/acme/app.git',
      'http://127.0.0.1:8080/app',
      'https://git.example.com./app',
      'https://0.a',
      'https://{',
      'https://\u00e9\u0019x',
      'http://1.2.3.4.5/app',
      'http://300.1.1.1/app',
      'http://a:65536/app',
      'https://example.com/app?ref=main',
      'https://example.com/app#main',
      'https://user@example.com/app',
    ];
    for (const [i, url] of urls.entries()) {
      const res = await api.post('/agent/environments', { name: `repos-url-${i}`, repos: [{ url }] });
      if (pattern.test(url)) {
        expect(res.status, url).toBe(201);
      } else {
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.errors, url).toEqual([{ path: '$.repos[0].url', message: expect.any(String) }]);
      }
    }
  });

  it('run-by-external-reference: a 2048-character url whose head passes 16 KB answers the 431 the operation documents', async () => {
    const lookup = operations.find((o) => o.operation.operationId === 'getRunByExternalReferenceURL')!;
    expect(lookup.parameters.find((p) => p.name === 'url')!.schema).toMatchObject({ maxLength: 2048 });
    expect(Object.keys(lookup.operation.responses)).toContain('431');
    // 12 bytes each once percent-encoded: 24 KB.
    const res = await api.get(`/agent/run-by-external-reference?url=${encodeURIComponent('\u{1F600}'.repeat(2048))}`);
    expectProblem(res, 431, 'request_header_fields_too_large');
  });

  it('OPTIONS names the methods of the one contract path the URL is (a concrete path before a templated one)', async () => {
    const current = await api.request('OPTIONS', '/api-keys/current');
    expect(current.status).toBe(204);
    expect(current.headers.get('allow')).toBe('GET, HEAD');
    const byId = await api.request('OPTIONS', '/api-keys/key_01hzx3k4m5n6p7q8r9s0t1v2w3');
    expect(byId.headers.get('allow')).toBe('DELETE');
    expect((await api.request('OPTIONS', '/agent/runs')).headers.get('allow')).toBe('GET, HEAD, POST');
    const deleteCurrent = await api.delete('/api-keys/current');
    expectProblem(deleteCurrent, 405, 'method_not_allowed');
    expect(deleteCurrent.headers.get('allow')).toBe('GET');
  });

  it('the operational endpoints answer another method with 405 naming GET and HEAD', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      for (const method of ['POST', 'TRACE']) {
        const res = await rawRequest(`${server.baseUrl}${path}`, method);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(res.body)).toMatchObject({ type: 'https://agent-runs.dev/errors/method_not_allowed', status: 405 });
      }
      const options = await rawRequest(`${server.baseUrl}${path}`, 'OPTIONS');
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe('GET, HEAD');
    }
  });
});
