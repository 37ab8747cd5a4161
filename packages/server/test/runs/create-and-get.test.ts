import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient } from '../support/http';
import { startTestServer, type TeamWithKey, type TestServer } from '../support/server';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(testDatabases())('createRun and getRun (%s)', (database) => {
  let server: TestServer;
  let team: TeamWithKey;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ database, engine: false });
    team = await server.createTeamWithKey('creators', 'member');
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  it('creates a QUEUED run (200 {run_id, task_id, state}) with full details on GET', async () => {
    const created = await api.post('/agent/runs', { prompt: 'Summarise the open issues.\nThen rank them.' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ run_id: expect.stringMatching(UUID_V4), task_id: created.body.run_id, state: 'QUEUED' });

    const got = await api.get(`/agent/runs/${created.body.run_id}`);
    expect(got.status).toBe(200);
    const run = got.body;
    expect(run).toMatchObject({
      run_id: created.body.run_id,
      task_id: created.body.run_id,
      title: 'Summarise the open issues.',
      state: 'QUEUED',
      prompt: 'Summarise the open issues.\nThen rank them.',
      source: 'API',
      creator: { type: 'service_account', uid: team.keyId, display_name: 'creators-member' },
      conversation_id: expect.stringMatching(/^conv_/),
      agent_config: { model_id: 'echo', max_turns: 20, model_call_timeout_seconds: 120, run_timeout_seconds: 1800 },
    });
    expect(run.session_id).toMatch(UUID_V4);
    expect(run.session_link).toBe(`${server.baseUrl}/sessions/${run.session_id}`);
    expect(run.created_at).toBe(run.updated_at);
    expect(run).not.toHaveProperty('started_at');
    expect(run).not.toHaveProperty('status_message');
    expect(run).not.toHaveProperty('attachments');
  });

  it('serves the deprecated alias POST /agent/run identically', async () => {
    const created = await api.post('/agent/run', { prompt: 'legacy client' });
    expect(created.status).toBe(200);
    expect(created.body.state).toBe('QUEUED');
    expect((await api.get(`/agent/runs/${created.body.run_id}`)).body.prompt).toBe('legacy client');
  });

  it('derives the title from the first non-blank line of the prompt, cut to 80 characters; keeps an explicit title', async () => {
    const long = `\n   ${'ä'.repeat(100)}  \nsecond line`;
    const derived = await api.post('/agent/runs', { prompt: long });
    expect((await api.get(`/agent/runs/${derived.body.run_id}`)).body.title).toBe('ä'.repeat(80));
    const explicit = await api.post('/agent/runs', { prompt: 'p', title: 'My title' });
    expect((await api.get(`/agent/runs/${explicit.body.run_id}`)).body.title).toBe('My title');
  });

  it('stores the requested config and resolves defaults (model, limits)', async () => {
    const config = {
      name: 'review',
      model_id: 'gpt-x',
      base_prompt: 'Be careful.',
      mcp_servers: { fs: { command: 'npx', args: ['server'] }, web: { url: 'https://mcp.example.org/x', headers: { A: 'b' } } },
      max_turns: 7,
      unknown_field: 'ignored',
    };
    const created = await api.post('/agent/runs', { prompt: 'p', config });
    expect(created.status).toBe(200);
    const run = (await api.get(`/agent/runs/${created.body.run_id}`)).body;
    expect(run.agent_config).toEqual({
      name: 'review',
      model_id: 'gpt-x',
      base_prompt: 'Be careful.',
      mcp_servers: config.mcp_servers,
      max_turns: 7,
      model_call_timeout_seconds: 120,
      run_timeout_seconds: 1800,
    });
    const row = await server.ctx.db.selectFrom('runs').select(['config']).where('id', '=', created.body.run_id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.config!)).toMatchObject({ name: 'review', model_id: 'gpt-x', max_turns: 7 });
    expect(JSON.parse(row.config!)).not.toHaveProperty('unknown_field');

    // The name-from-skill default needs a skills root: test/agent/model-run-e2e.test.ts covers it.
    const unknownSkill = await api.post('/agent/runs', { prompt: 'p', config: { skill_spec: 'acme/skills:path/to/release-notes/SKILL.md' } });
    expectProblem(unknownSkill, 400, 'invalid_request');
    expect(unknownSkill.body.errors).toEqual([{ path: '$.config.skill_spec', message: expect.any(String) }]);
  });

  it('requires a prompt with a clear 400 naming $.prompt; refuses a blank one', async () => {
    const missing = await api.post('/agent/runs', { title: 'no prompt' });
    expectProblem(missing, 400, 'invalid_request');
    expect(missing.body.errors).toEqual([{ path: '$.prompt', message: expect.stringContaining('prompt') }]);
    expect(missing.body.detail).toContain('prompt');
    expectProblem(await api.post('/agent/runs', { prompt: '' }), 400, 'invalid_request');
    const blank = await api.post('/agent/runs', { prompt: '  \n ' });
    expectProblem(blank, 400, 'invalid_request');
    // The contract's pattern (a non-whitespace character) refuses it first.
    expect(blank.body.errors).toEqual([{ path: '$.prompt', message: 'must match pattern "\\S"' }]);
    expectProblem(await api.post('/agent/runs', { prompt: 42 }), 400, 'invalid_request');
  });

  it('refuses agent_identity_uid with a 400 pointing to factory dispatch', async () => {
    const res = await api.post('/agent/runs', { prompt: 'p', agent_identity_uid: 'agent_1' });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.detail).toContain('POST /factories/{factoryUid}/runs');
    expect(res.body.errors).toEqual([{ path: '$.agent_identity_uid', message: 'not supported' }]);
  });

  it('answers 400 invalid_request for an environment the team does not have', async () => {
    const res = await api.post('/agent/runs', { prompt: 'p', config: { environment_id: 'env_00000000000000000000000000' } });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors).toEqual([{ path: '$.config.environment_id', message: expect.stringContaining('env_0') }]);
  });

  it('stores up to five attachments (listed by file name) and serves each with its own content type', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    const created = await api.post('/agent/runs', {
      prompt: 'look at these',
      attachments: [
        { file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('hello\n').toString('base64') },
        { file_name: 'image.png', mime_type: 'image/png', data: png.toString('base64') },
        { file_name: 'reçu 1.json', mime_type: 'application/json', data: Buffer.from('{"a":1}').toString('base64') },
      ],
    });
    expect(created.status).toBe(200);
    const run = (await api.get(`/agent/runs/${created.body.run_id}`)).body;
    expect(run.attachments).toEqual([
      { file_name: 'image.png', mime_type: 'image/png', size: png.length },
      { file_name: 'notes.txt', mime_type: 'text/plain', size: 6 },
      { file_name: 'reçu 1.json', mime_type: 'application/json', size: 7 },
    ]);

    const image = await fetch(`${server.apiUrl}/agent/runs/${created.body.run_id}/attachments/image.png`, {
      headers: { authorization: `Bearer ${team.apiKey}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBe('attachment; filename="image.png"');
    expect(Buffer.compare(Buffer.from(await image.arrayBuffer()), png)).toBe(0);

    const text = await fetch(`${server.apiUrl}/agent/runs/${created.body.run_id}/attachments/notes.txt`, {
      headers: { authorization: `Bearer ${team.apiKey}` },
    });
    expect(text.headers.get('content-type')).toBe('text/plain');
    expect(await text.text()).toBe('hello\n');

    const unicode = await api.get(`/agent/runs/${created.body.run_id}/attachments/${encodeURIComponent('reçu 1.json')}`);
    expect(unicode.status).toBe(200);
    expect(unicode.text).toBe('{"a":1}');
    expect(unicode.headers.get('content-disposition')).toBe(`attachment; filename="re_u 1.json"; filename*=UTF-8''re%C3%A7u%201.json`);

    expectProblem(await api.get(`/agent/runs/${created.body.run_id}/attachments/missing.txt`), 404, 'resource_not_found');
  });

  it('refuses a sixth attachment, bad base64 and duplicate file names with 400', async () => {
    const file = (n: number) => ({ file_name: `f${n}.txt`, mime_type: 'text/plain', data: 'aGk=' });
    const six = await api.post('/agent/runs', { prompt: 'p', attachments: [1, 2, 3, 4, 5, 6].map(file) });
    expectProblem(six, 400, 'invalid_request');
    expect(six.body.errors[0].path).toBe('$.attachments');

    const bad = await api.post('/agent/runs', { prompt: 'p', attachments: [file(1), { ...file(2), data: 'not base64!' }] });
    expectProblem(bad, 400, 'invalid_request');
    // The contract's base64 pattern refuses it before the server's own decoding would.
    expect(bad.body.errors).toEqual([{ path: '$.attachments[1].data', message: expect.stringMatching(/^must match pattern/) }]);

    const dup = await api.post('/agent/runs', { prompt: 'p', attachments: [file(1), file(1)] });
    expectProblem(dup, 400, 'invalid_request');

    const slash = await api.post('/agent/runs', { prompt: 'p', attachments: [{ ...file(1), file_name: '../etc/passwd' }] });
    expectProblem(slash, 400, 'invalid_request');
    const runs = await server.ctx.db.selectFrom('runs').select('id').where('prompt', '=', 'p').where('team_id', '=', team.teamId).execute();
    const withAttachments = await server.ctx.db.selectFrom('run_attachments').select('file_name').where('team_id', '=', team.teamId).execute();
    expect(runs.length).toBeGreaterThan(0);
    expect(withAttachments.map((a) => a.file_name)).not.toContain('f6.txt');
  });

  it('refuses a prompt over 262,144 characters and a title over 200 with 400, on createRun, the alias and factory dispatch', async () => {
    const { createApiKey } = await import('../../src/api-keys/service');
    const admin = apiClient(
      server.apiUrl,
      (await createApiKey(server.ctx.db, server.ctx.clock, { teamId: team.teamId, name: 'bounds-admin', role: 'admin', createdBy: 'operator' })).api_key,
    );
    const factory = await admin.post('/factories', { name: 'bounds' });
    expect(factory.status).toBe(201);
    for (const path of ['/agent/runs', '/agent/run', `/factories/${factory.body.uid}/runs`]) {
      const longPrompt = await api.post(path, { prompt: 'p'.repeat(262_145) });
      expectProblem(longPrompt, 400, 'invalid_request');
      expect(longPrompt.body.errors).toEqual([expect.objectContaining({ path: '$.prompt' })]);
      const longTitle = await api.post(path, { prompt: 'p', title: 't'.repeat(201) });
      expectProblem(longTitle, 400, 'invalid_request');
      expect(longTitle.body.errors).toEqual([expect.objectContaining({ path: '$.title' })]);
      const atBounds = await api.post(path, { prompt: 'p'.repeat(262_144), title: 't'.repeat(200) });
      expect(atBounds.status, JSON.stringify(atBounds.body)).toBe(200);
      expect((await api.get(`/agent/runs/${atBounds.body.run_id}`)).body.title).toBe('t'.repeat(200));
    }
  });

  it('refuses an attachment mime_type with a control character (CR/LF, tab, NUL) or a non-ASCII one with 400 at create', async () => {
    for (const mime_type of [
      'text/plain\r\nSet-Cookie: a=b',
      'text/plain\n',
      'text/plain;\tcharset=utf-8',
      'text/\u0000plain',
      'text/plain\u007f',
      'text/plain; name=\u65e5',
    ]) {
      const res = await api.post('/agent/runs', { prompt: 'mime', attachments: [{ file_name: 'a.txt', mime_type, data: 'aGk=' }] });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '$.attachments[0].mime_type' })]);
    }
    const ok = await api.post('/agent/runs', { prompt: 'mime', attachments: [{ file_name: 'a.txt', mime_type: 'text/plain; charset="utf-8"', data: 'aGk=' }] });
    expect(ok.status).toBe(200);
    const download = await api.get(`/agent/runs/${ok.body.run_id}/attachments/a.txt`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/plain; charset="utf-8"');
  });

  it("answers 404 for an unknown run and for another team's run, on every run endpoint", async () => {
    const mine = await api.post('/agent/runs', { prompt: 'private', attachments: [{ file_name: 'a.txt', mime_type: 'text/plain', data: 'aGk=' }] });
    const other = apiClient(server.apiUrl, (await server.createTeamWithKey('intruders', 'admin')).apiKey);
    for (const id of [mine.body.run_id, '00000000-0000-4000-8000-000000000000']) {
      expectProblem(await other.get(`/agent/runs/${id}`), 404, 'resource_not_found');
      expectProblem(await other.post(`/agent/runs/${id}/cancel`), 404, 'resource_not_found');
      expectProblem(await other.post(`/agent/runs/${id}/followups`, { message: 'hi' }), 404, 'resource_not_found');
      expectProblem(await other.get(`/agent/runs/${id}/conversation`), 404, 'resource_not_found');
      expectProblem(await other.get(`/agent/runs/${id}/attachments/a.txt`), 404, 'resource_not_found');
      expectProblem(await other.get(`/agent/runs/${id}/events`), 404, 'resource_not_found');
    }
    expect((await other.get('/agent/runs')).body.runs).toEqual([]);
    expect((await api.get(`/agent/runs/${mine.body.run_id}`)).body.state).toBe('QUEUED');
  });
});
