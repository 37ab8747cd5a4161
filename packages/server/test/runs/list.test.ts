import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient, type HttpResponse } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('listRuns (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let teamId: string;
  const clock = new ManualClock(Date.parse('2026-11-01T00:00:00Z'));

  const create = async (body: Record<string, unknown>, advanceMs = 1000): Promise<string> => {
    clock.advance(advanceMs);
    const res = await api.post('/agent/runs', body);
    expect(res.status).toBe(200);
    return res.body.run_id as string;
  };
  /** Test setup for fields only the engine or the automations set. */
  const patchRun = (id: string, values: Record<string, string | null>) => server.ctx.db.updateTable('runs').set(values).where('id', '=', id).execute();
  const ids = async (query: string): Promise<string[]> => {
    const res = await api.get(`/agent/runs${query}`);
    expect(res.status).toBe(200);
    return res.body.runs.map((r: { run_id: string }) => r.run_id);
  };
  /** Every page of a query, following next_cursor. */
  const allPages = async (query: string, between?: () => Promise<void>): Promise<string[]> => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const res: HttpResponse = await api.get(`/agent/runs${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.runs.map((r: { run_id: string }) => r.run_id));
      if (!res.body.page_info.has_next_page) {
        expect(res.body.page_info.next_cursor).toBeNull();
        return seen;
      }
      cursor = res.body.page_info.next_cursor;
      await between?.();
    }
    throw new Error('too many pages');
  };

  beforeAll(async () => {
    server = await startTestServer({ database, engine: false, clock });
    const team = await server.createTeamWithKey('listers', 'member');
    teamId = team.teamId;
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  it('filters by state (repeatable), name, model_id, creator, source, factory, automation and time bounds', async () => {
    const t0 = clock.now().toISOString();
    const a = await create({ prompt: 'a', config: { name: 'triage', model_id: 'm1' } });
    const b = await create({ prompt: 'b', config: { name: 'triage', model_id: 'm2' } });
    const c = await create({ prompt: 'c', config: { name: 'review' } });
    const t3 = clock.now().toISOString();
    const other = await server.createTeamWithKey('listers-2nd-key-team', 'member');
    void other;
    await patchRun(b, { state: 'SUCCEEDED', updated_at: new Date(clock.now().getTime() + 60_000).toISOString() });
    await patchRun(c, { state: 'FAILED', source: 'WEBHOOK', factory_id: 'fac_x', automation_id: 'aut_y', creator_uid: 'aut_y' });

    const scope = `&created_after=${encodeURIComponent(t0)}`;
    expect(new Set(await ids(`?limit=500${scope}`))).toEqual(new Set([a, b, c]));
    expect(new Set(await ids(`?state=SUCCEEDED&state=FAILED${scope}`))).toEqual(new Set([b, c]));
    expect(await ids(`?state=QUEUED${scope}`)).toEqual([a]);
    expect(new Set(await ids(`?name=triage${scope}`))).toEqual(new Set([a, b]));
    expect(await ids(`?model_id=m2${scope}`)).toEqual([b]);
    expect(await ids(`?model_id=echo${scope}`)).toEqual([c]);
    expect(await ids(`?creator=aut_y${scope}`)).toEqual([c]);
    expect(await ids(`?source=WEBHOOK${scope}`)).toEqual([c]);
    expect(new Set(await ids(`?source=API${scope}`))).toEqual(new Set([a, b]));
    expect(await ids(`?factory_uid=fac_x${scope}`)).toEqual([c]);
    expect(await ids(`?automation_id=aut_y${scope}`)).toEqual([c]);
    expect(await ids(`?created_before=${encodeURIComponent(t3)}&created_after=${encodeURIComponent(t0)}&sort_by=created_at&sort_order=asc`)).toEqual([a, b]);
    // Another offset, same instant: bounds compare instants, not text.
    const tAsPlus2 = new Date(Date.parse(t3) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await ids(`?created_before=${encodeURIComponent(tAsPlus2)}${scope}&sort_by=created_at&sort_order=asc`)).toEqual([a, b]);
    expect(await ids(`?updated_after=${encodeURIComponent(t3)}${scope}`)).toEqual([b]);
    expect(await ids(`?name=nobody${scope}`)).toEqual([]);

    expectProblem(await api.get('/agent/runs?state=RUNNING'), 400, 'invalid_request');
    expectProblem(await api.get('/agent/runs?created_after=yesterday'), 400, 'invalid_request');
    expectProblem(await api.get('/agent/runs?sort_by=name'), 400, 'invalid_request');
    expectProblem(await api.get('/agent/runs?limit=501'), 400, 'invalid_request');
  });

  it("finds a run by its session_id (exact, any case), only in the caller's team", async () => {
    const a = await create({ prompt: 'session a' });
    const b = await create({ prompt: 'session b' });
    const sessionOf = async (id: string): Promise<string> => (await api.get(`/agent/runs/${id}`)).body.session_id;
    const [sessionA, sessionB] = [await sessionOf(a), await sessionOf(b)];
    expect(await ids(`?session_id=${sessionA}`)).toEqual([a]);
    expect(await ids(`?session_id=${sessionB.toUpperCase()}`)).toEqual([b]);
    expect(await ids(`?session_id=${sessionA}&state=SUCCEEDED`)).toEqual([]);
    expect(await ids('?session_id=00000000-0000-4000-8000-000000000000')).toEqual([]);
    const stranger = await server.createTeamWithKey('session-strangers', 'member');
    const theirs = await apiClient(server.apiUrl, stranger.apiKey).get(`/agent/runs?session_id=${sessionA}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.runs).toEqual([]);
    expectProblem(await api.get('/agent/runs?session_id=not-a-uuid'), 400, 'invalid_request');
  });

  it('sorts by created_at or updated_at in both orders (default updated_at desc, 20 per page)', async () => {
    const t0 = clock.now().toISOString();
    const first = await create({ prompt: 'first' });
    const second = await create({ prompt: 'second' });
    const third = await create({ prompt: 'third' });
    // `first` was updated last.
    await patchRun(first, { updated_at: new Date(clock.now().getTime() + 5_000).toISOString() });
    const scope = `created_after=${encodeURIComponent(t0)}`;
    expect(await ids(`?${scope}`)).toEqual([first, third, second]);
    expect(await ids(`?${scope}&sort_by=updated_at&sort_order=asc`)).toEqual([second, third, first]);
    expect(await ids(`?${scope}&sort_by=created_at`)).toEqual([third, second, first]);
    expect(await ids(`?${scope}&sort_by=created_at&sort_order=asc`)).toEqual([first, second, third]);

    for (let i = 0; i < 21; i++) await create({ prompt: `bulk ${i}` }, 1);
    const page = await api.get('/agent/runs');
    expect(page.body.runs).toHaveLength(20);
    expect(page.body.page_info.has_next_page).toBe(true);
  });

  it('lists each run with its own attachment metadata and none for runs without attachments', async () => {
    const t0 = clock.now().toISOString();
    const file = (file_name: string, text: string) => ({ file_name, mime_type: 'text/plain', data: Buffer.from(text).toString('base64') });
    const plain = await create({ prompt: 'no files' });
    const withTwo = await create({ prompt: 'two files', attachments: [file('b.txt', 'bb'), file('a.txt', 'a')] });
    const withOne = await create({ prompt: 'one file', attachments: [file('c.txt', 'ccc')] });
    const res = await api.get(`/agent/runs?sort_by=created_at&sort_order=asc&created_after=${encodeURIComponent(t0)}`);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.runs.map((r: { run_id: string }) => [r.run_id, r]));
    expect(byId.get(plain)).not.toHaveProperty('attachments');
    expect(byId.get(withTwo)).toHaveProperty('attachments', [
      { file_name: 'a.txt', mime_type: 'text/plain', size: 1 },
      { file_name: 'b.txt', mime_type: 'text/plain', size: 2 },
    ]);
    expect(byId.get(withOne)).toHaveProperty('attachments', [{ file_name: 'c.txt', mime_type: 'text/plain', size: 3 }]);
  });

  it('pages with keyset cursors: every run exactly once, also for runs created at the same instant', async () => {
    const t0 = clock.now().toISOString();
    const created: string[] = [];
    for (let i = 0; i < 11; i++) created.push(await create({ prompt: `tie ${i}` }, i === 0 ? 1000 : 0));
    for (const order of ['asc', 'desc']) {
      for (const sortBy of ['created_at', 'updated_at']) {
        const seen = await allPages(`?limit=3&sort_by=${sortBy}&sort_order=${order}&created_after=${encodeURIComponent(t0)}`);
        expect(seen).toHaveLength(11);
        expect(new Set(seen)).toEqual(new Set(created));
      }
    }
  });

  it('stays correct while runs are inserted between and during page requests', async () => {
    const t0 = clock.now().toISOString();
    const before: string[] = [];
    for (let i = 0; i < 12; i++) before.push(await create({ prompt: `existing ${i}` }));
    const inserted: string[] = [];
    const insertSome = async () => {
      // Concurrent inserts racing the next page request.
      const racing = Promise.all([create({ prompt: 'racer a' }, 1), create({ prompt: 'racer b' }, 1)]);
      inserted.push(...(await racing));
    };
    const scope = `created_after=${encodeURIComponent(t0)}`;

    // Newest first: runs created meanwhile are newer than the cursor and never shift later pages.
    const desc = await allPages(`?limit=5&sort_by=created_at&sort_order=desc&${scope}`, insertSome);
    expect(desc).toEqual([...before].reverse());

    // Oldest first: runs created meanwhile come after the cursor and show up at the end, once each.
    const racersBefore = inserted.length;
    const asc = await allPages(`?limit=5&sort_by=created_at&sort_order=asc&${scope}`, insertSome);
    expect(new Set(asc).size).toBe(asc.length);
    expect(asc.slice(0, 12)).toEqual(before.slice(0, 12));
    const everyRun = [...before, ...inserted];
    expect(asc.every((id) => everyRun.includes(id))).toBe(true);
    expect(asc.length).toBeGreaterThanOrEqual(12 + racersBefore);
  });

  it('stops a page once its JSON passes 4 MiB, whatever limit asks, and the cursor continues right after it', async () => {
    const created: string[] = [];
    for (let i = 0; i < 24; i++) created.push(await create({ prompt: `${i} `.padEnd(262_144, 'x'), config: { name: 'big-page' } }));
    const query = '?limit=500&name=big-page&sort_by=created_at&sort_order=asc';
    const first = await api.get(`/agent/runs${query}`);
    expect(first.status).toBe(200);
    const firstIds = first.body.runs.map((r: { run_id: string }) => r.run_id);
    // 4 MiB of JSON holds 16 of these runs; the one that passes the mark is the last of the page.
    expect(firstIds.length).toBeGreaterThanOrEqual(16);
    expect(firstIds.length).toBeLessThan(24);
    expect(Buffer.byteLength(first.text)).toBeLessThan(4 * 1024 * 1024 + 300_000);
    expect(first.body.page_info.has_next_page).toBe(true);
    expect(await allPages(query)).toEqual(created);
    // A page that ends exactly at the last run says so.
    expect((await api.get(`/agent/runs${query}&cursor=${first.body.page_info.next_cursor}`)).body.page_info).toEqual({
      has_next_page: false,
      next_cursor: null,
    });
  });

  it('returns every run of a large limit in order (more rows than one read fetches)', async () => {
    const created: string[] = [];
    for (let i = 0; i < 130; i++) created.push(await create({ prompt: `many ${i}`, config: { name: 'many' } }));
    const all = await api.get('/agent/runs?limit=500&name=many&sort_by=created_at&sort_order=asc');
    expect(all.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual(created);
    expect(all.body.page_info).toEqual({ has_next_page: false, next_cursor: null });
    const first = await api.get('/agent/runs?limit=101&name=many&sort_by=created_at&sort_order=desc');
    expect(first.body.runs).toHaveLength(101);
    expect(first.body.page_info.has_next_page).toBe(true);
    expect(await allPages('?limit=101&name=many&sort_by=created_at&sort_order=desc')).toHaveLength(130);
  });

  it('Oz filters: q (title, prompt, skill; any case; LIKE characters literal), metadata pairs, ancestor_run_id, environment_id, skill; sort_by title and agent across pages', async () => {
    const scope = `&created_after=${encodeURIComponent(clock.now().toISOString())}`;
    const parent = await create({ prompt: 'Fix 100%_OFF banner', title: 'Zebra banner', metadata: { team: 'web', tier: 'gold' } });
    const child = await create({ prompt: 'child', title: 'apple', parent_run_id: parent, metadata: { tier: 'silver' } });
    const grandchild = await create({ prompt: 'grandchild', title: 'Mango', parent_run_id: child });
    const other = await create({ prompt: 'fix 100 OFF banner', title: 'other' });

    expect(await ids(`?q=${encodeURIComponent('100%_off')}${scope}`)).toEqual([parent]);
    expect((await ids(`?q=BANNER${scope}`)).sort()).toEqual([parent, other].sort());
    expect(await ids(`?q=mango${scope}`)).toEqual([grandchild]);
    // Inherited and overridden metadata: the child keeps team=web from its parent, its own tier wins.
    const got = await api.get(`/agent/runs/${child}`);
    expect(got.body.metadata).toEqual({ team: 'web', tier: 'silver' });
    expect(got.body.parent_run_id).toBe(parent);
    // The grandchild inherits from its parent what that one inherited.
    expect((await ids(`?metadata%5Bteam%5D=web${scope}`)).sort()).toEqual([parent, child, grandchild].sort());
    expect(await ids(`?metadata[team]=web&metadata[tier]=gold${scope}`)).toEqual([parent]);
    expect(await ids(`?metadata[tier]=bronze${scope}`)).toEqual([]);
    // Page by page in both orders (SQLite reads a rare pair's runs first and sorts them): the same runs, in order.
    const byCreation = await allPages(`?metadata[team]=web&limit=1&sort_by=created_at&sort_order=asc${scope}`);
    expect(byCreation).toEqual([parent, child, grandchild]);
    expect(await allPages(`?metadata[tier]=silver&metadata[team]=web&limit=1&sort_by=created_at&sort_order=desc${scope}`)).toEqual([grandchild, child]);
    expect((await ids(`?ancestor_run_id=${parent}`)).sort()).toEqual([child, grandchild].sort());
    expect(await ids(`?ancestor_run_id=${child}`)).toEqual([grandchild]);
    expect((await ids(`?environment_id=empty-environment${scope}`)).length).toBe(4);
    expect(await ids(`?skill=acme/skills:none${scope}`)).toEqual([]);
    const byTitle = await allPages(`?limit=1&sort_by=title&sort_order=asc${scope}`);
    // Code-point order: upper case before lower case.
    expect(byTitle).toEqual([grandchild, parent, child, other]);
    expect(await allPages(`?limit=2&sort_by=title&sort_order=desc${scope}`)).toEqual([...byTitle].reverse());
    expect((await allPages(`?limit=1&sort_by=agent&sort_order=asc${scope}`)).sort()).toEqual([parent, child, grandchild, other].sort());

    expectProblem(await api.get('/agent/runs?ancestor_run_id=00000000-0000-4000-8000-000000000000'), 400, 'invalid_request');
    expect(await ids(`?skill=acme/skills:review&skill_spec=acme/skills:other${scope}`)).toEqual([]);
    expectProblem(await api.get('/agent/runs?metadata[bad key]=x'), 400, 'invalid_request');
    expectProblem(await api.post('/agent/runs', { prompt: 'p', parent_run_id: '00000000-0000-4000-8000-000000000000' }), 400, 'invalid_request');
    expectProblem(await api.post('/agent/runs', { prompt: 'p', metadata: { k: 'é'.repeat(129) } }), 400, 'invalid_request');
    expectProblem(await api.post('/agent/runs', { prompt: 'p', metadata: { 'bad key': 'v' } }), 400, 'invalid_request');
    expectProblem(await api.post('/agent/runs', { prompt: 'p', metadata: { k: 'a\u0000b' } }), 400, 'invalid_request');
  });

  it('answers 400 for a malformed cursor or one issued for another sort or other filters', async () => {
    for (let i = 0; i < 3; i++) await create({ prompt: `cursor ${i}`, config: { name: 'cur' } });
    const page = await api.get('/agent/runs?limit=1&sort_by=created_at&name=cur');
    const cursor = page.body.page_info.next_cursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await api.get(`/agent/runs?limit=1&sort_by=created_at&name=cur&cursor=${cursor}`)).status).toBe(200);

    for (const bad of ['garbage!', 'bm90IGpzb24', Buffer.from('{"k":"created_at"}').toString('base64url'), 'x'.repeat(3000)]) {
      const res = await api.get(`/agent/runs?cursor=${bad}`);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'query.cursor' })]);
    }
    expectProblem(await api.get(`/agent/runs?limit=1&sort_by=updated_at&name=cur&cursor=${cursor}`), 400, 'invalid_request');
    expectProblem(await api.get(`/agent/runs?limit=1&sort_by=created_at&sort_order=asc&name=cur&cursor=${cursor}`), 400, 'invalid_request');
    expectProblem(await api.get(`/agent/runs?limit=1&sort_by=created_at&name=other&cursor=${cursor}`), 400, 'invalid_request');
    void teamId;
  });
});
