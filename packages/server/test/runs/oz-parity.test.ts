/**
 * The runs API's Oz answers beyond the happy path (docs/decisions.md §Oz parity), over HTTP on SQLite and
 * PostgreSQL with responses validated against the contract: the transcript's 302 and its signed, expiring
 * download URL; the Oz config fields refused by name (MCP servers by warp_id among them) and those
 * accepted without effect; the follow-up's mode; RunItem's Oz fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient } from '../support/http';
import { startTestServer, type TeamWithKey, type TestServer } from '../support/server';

describe.each(testDatabases())('Oz parity of the runs API (%s)', (database) => {
  let server: TestServer;
  let team: TeamWithKey;
  let api: ApiClient;
  const clock = new ManualClock(Date.parse('2026-11-27T09:00:00Z'));

  beforeAll(async () => {
    // No workers: what a run records is written here, so every answer is exact.
    server = await startTestServer({ database, engine: false, clock, env: { TRANSCRIPT_URL_TTL_SECONDS: '120' } });
    team = await server.createTeamWithKey('oz-parity', 'member');
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  /** The transcript's redirect, not followed. */
  const transcriptRedirect = (runId: string, key = team.apiKey) =>
    fetch(`${server.apiUrl}/agent/runs/${runId}/transcript`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual' });

  /** A run with a user prompt, an assistant action, its result and a text answer, as a model run records them. */
  async function recordedRun(): Promise<string> {
    const { run_id } = (await api.post('/agent/runs', { prompt: 'Read the skill, then answer.' })).body;
    const { appendEvents } = await import('../../src/runs/events');
    const { loadSteps } = await import('../../src/runs/conversation');
    const step = (await loadSteps(server.ctx.db, team.teamId, run_id))[0]!;
    const at = clock.now().toISOString();
    const content = (message_id: string, role: 'assistant' | 'tool', block: object) => ({
      kind: 'content' as const,
      data: { run_id, step_id: step.id, message_id, role, timestamp: at, block: block as never },
    });
    await server.ctx.db.transaction().execute((tx) =>
      appendEvents(tx, { id: run_id, team_id: team.teamId }, [
        content('msg_a', 'assistant', {
          type: 'action',
          id: 'call_1',
          category: 'skill',
          name: 'read_skill',
          input: { name: 'Create skill', bundled_skill_id: 'create-skill' },
        }),
        content('msg_t', 'tool', {
          type: 'action_result',
          action_id: 'call_1',
          category: 'skill',
          name: 'read_skill',
          state: 'completed',
          output: { text: '# Create skill' },
        }),
        content('msg_b', 'assistant', { type: 'text', text: 'Done.' }),
      ]),
    );
    return run_id;
  }

  describe('GET /agent/runs/{runId}/transcript', () => {
    it('answers 302 to a signed download URL that needs no API key and serves the conversation as JSON Lines', async () => {
      const runId = await recordedRun();
      const redirect = await transcriptRedirect(runId);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('cache-control')).toBe('no-store');
      const location = redirect.headers.get('location')!;
      expect(location).toMatch(new RegExp(`^${server.apiUrl}/agent/runs/${runId}/transcript/download\\?token=${team.teamId}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
      expect(Number(new URL(location).searchParams.get('token')!.split('.')[1])).toBe(clock.now().getTime() / 1000 + 120);

      const download = await fetch(location); // no Authorization header
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="transcript-${runId}.jsonl"`);
      const text = await download.text();
      expect(text.endsWith('\n')).toBe(true);
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((l) => [l.role, l.message_id])).toEqual([
        ['user', expect.stringMatching(/^msg_/)],
        ['assistant', 'msg_a'],
        ['tool', 'msg_t'],
        ['assistant', 'msg_b'],
      ]);
      expect(lines[0]).toEqual({
        step_id: expect.stringMatching(/^step_/),
        message_id: expect.any(String),
        role: 'user',
        timestamp: expect.any(String),
        content: [{ type: 'text', text: 'Read the skill, then answer.' }],
      });
      expect(lines[2]!.content).toEqual([
        { type: 'action_result', action_id: 'call_1', category: 'skill', name: 'read_skill', state: 'completed', output: { text: '# Create skill' } },
      ]);

      // The same messages as the conversation, in order.
      const conversation = (await api.get(`/agent/runs/${runId}/conversation`)).body;
      expect(conversation.steps.flatMap((s: { messages: Array<{ content: unknown }> }) => s.messages.map((m) => m.content))).toEqual(
        lines.map((l) => l.content),
      );

      // A client that follows the redirect (fetch's default) gets the file in one call; a wrong key on the
      // download itself is ignored, the token is the credential.
      const followed = await fetch(`${server.apiUrl}/agent/runs/${runId}/transcript`, { headers: { authorization: `Bearer ${team.apiKey}` } });
      expect(await followed.text()).toBe(text);
      expect((await fetch(location, { headers: { authorization: 'Bearer ar_live_wrong' } })).status).toBe(200);
    });

    it('refuses a token that was altered, belongs to another run or has expired (403), and one that is missing (400)', async () => {
      const runId = await recordedRun();
      const otherRun = await recordedRun();
      const location = new URL((await transcriptRedirect(runId)).headers.get('location')!);
      const token = location.searchParams.get('token')!;
      const [teamId, expires, signature] = token.split('.') as [string, string, string];
      const download = (id: string, t: string) => apiClient(server.apiUrl).get(`/agent/runs/${id}/transcript/download?token=${encodeURIComponent(t)}`);

      for (const forged of [
        `${teamId}.${Number(expires) + 3600}.${signature}`, // a longer life
        `team_00000000000000000000000000.${expires}.${signature}`, // another team
        `${teamId}.${expires}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, // one character changed
        'not-a-token',
      ]) {
        const res = await download(runId, forged);
        expectProblem(res, 403, 'not_authorized');
        expect(res.body.detail).toContain('not valid for this run');
      }
      expectProblem(await download(otherRun, token), 403, 'not_authorized');
      expectProblem(await apiClient(server.apiUrl).get(`/agent/runs/${runId}/transcript/download`), 400, 'invalid_request');

      const url = (t: string) => `${server.apiUrl}/agent/runs/${runId}/transcript/download?token=${t}`;
      expect((await fetch(url(token))).status).toBe(200);
      clock.advance(119_999);
      expect((await fetch(url(token))).status).toBe(200);
      clock.advance(1);
      const expired = await download(runId, token);
      expectProblem(expired, 403, 'not_authorized');
      expect(expired.body.detail).toContain('expired');
      // A new redirect carries a fresh URL.
      const fresh = new URL((await transcriptRedirect(runId)).headers.get('location')!);
      expect((await fetch(fresh)).status).toBe(200);
    });

    it("answers 404 for an unknown run and another team's run, and 401 without a key", async () => {
      const runId = await recordedRun();
      const intruder = await server.createTeamWithKey('oz-intruder', 'admin');
      expect((await transcriptRedirect(runId, intruder.apiKey)).status).toBe(404);
      expect((await transcriptRedirect('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expectProblem(await apiClient(server.apiUrl).get(`/agent/runs/${runId}/transcript`), 401, 'authentication_required');
    });
  });

  describe('RunAgentRequest: Oz config fields', () => {
    it.each([
      [{ runner_id: 'runner_1' }, '$.config.runner_id'],
      [{ session_sharing: { public_access: 'VIEWER' } }, '$.config.session_sharing.public_access'],
      [{ memory_stores: [{ uid: 'mem_1', access: 'read_only', instructions: 'use it' }] }, '$.config.memory_stores'],
      [{ inference_providers: { aws: { role_arn: 'arn:aws:iam::1:role/r', region: 'us-east-1' } } }, '$.config.inference_providers.aws'],
      [{ mcp_servers: { linear: { warp_id: 'linear' } } }, '$.config.mcp_servers.linear.warp_id'],
    ])('refuses %j with 400 naming %s, storing nothing', async (config, path) => {
      const before = (await api.get('/agent/runs?limit=500')).body.runs.length;
      const res = await api.post('/agent/runs', { prompt: 'p', config });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors).toEqual([{ path, message: 'not supported' }]);
      expect(res.body.detail).toContain(path.slice(2));
      expect((await api.get('/agent/runs?limit=500')).body.runs).toHaveLength(before);
    });

    it('says why an MCP server by warp_id cannot run here, also on a saved automation (422)', async () => {
      const res = await api.post('/agent/runs', {
        prompt: 'p',
        config: { mcp_servers: { ok: { url: 'https://mcp.example.org' }, linear: { warp_id: 'linear' } } },
      });
      expect(res.body.detail).toMatch(/no Warp shared MCP servers or integrations.*command or url/);
      const admin = apiClient(server.apiUrl, (await server.createTeamWithKey('oz-automations', 'admin')).apiKey);
      const factory = (await admin.post('/factories', { name: 'oz-factory' })).body;
      const automation = await admin.post(`/factories/${factory.uid}/automations`, {
        name: 'warp',
        prompt: 'p',
        config: { mcp_servers: { linear: { warp_id: 'linear' } } },
        triggers: [],
      });
      expectProblem(automation, 422, 'validation_failed');
      expect(automation.body.errors).toEqual([{ path: '$.config.mcp_servers.linear.warp_id', message: 'not supported' }]);
    });

    it('accepts, without effect, what has no meaning here: computer_use_model_id, credential_strategy, empty sharing, stores and providers', async () => {
      const res = await api.post('/agent/runs', {
        prompt: 'p',
        config: {
          computer_use_model_id: 'x',
          credential_strategy: 'CREATOR',
          harness: { type: 'oz', model_id: 'm', reasoning_level: 'high' },
          session_sharing: {},
          memory_stores: [],
          inference_providers: { aws: { disabled: true } },
        },
      });
      expect(res.status).toBe(200);
      expect((await api.get(`/agent/runs/${res.body.run_id}`)).body.agent_config).not.toHaveProperty('credential_strategy');
    });
  });

  describe('follow-ups and RunItem', () => {
    it('refuses a follow-up in plan or orchestrate mode by name; normal is a follow-up', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'p' })).body;
      for (const mode of ['plan', 'orchestrate']) {
        const res = await api.post(`/agent/runs/${run_id}/followups`, { message: 'm', mode });
        expectProblem(res, 400, 'invalid_request');
        expect(res.body.errors).toEqual([{ path: '$.mode', message: 'not supported' }]);
      }
      expect((await api.post(`/agent/runs/${run_id}/followups`, { message: 'm', mode: 'normal' })).status).toBe(200);
      expectProblem(await api.post(`/agent/runs/${run_id}/followups`, { message: 'm', mode: 'other' }), 400, 'invalid_request');
    });

    it('answers is_sandbox_running while a worker holds the run, debug_agent_available false, request_usage once tokens were spent', async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: 'p' })).body;
      expect((await api.get(`/agent/runs/${run_id}`)).body).toMatchObject({ is_sandbox_running: false, debug_agent_available: false });
      expect((await api.get(`/agent/runs/${run_id}`)).body).not.toHaveProperty('request_usage');
      await server.ctx.db
        .updateTable('runs')
        .set({
          state: 'INPROGRESS',
          lease_owner: 'worker-x',
          lease_expires_at: '2999-01-01T00:00:00.000Z',
          usage: JSON.stringify({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }),
        })
        .where('id', '=', run_id)
        .execute();
      const run = (await api.get(`/agent/runs/${run_id}`)).body;
      expect(run).toMatchObject({ is_sandbox_running: true, request_usage: { total_tokens: 15 }, usage: { total_tokens: 15 } });
      const listed = (await api.get('/agent/runs?state=INPROGRESS')).body.runs.find((r: { run_id: string }) => r.run_id === run_id);
      expect(listed).toEqual(run);
    });
  });
});
