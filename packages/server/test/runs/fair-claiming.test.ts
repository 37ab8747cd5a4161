/**
 * Fair sharing of the workers (docs/decisions.md §Fair claiming), through the public API on SQLite and
 * PostgreSQL: a team at TEAM_MAX_CONCURRENT_RUNS waits QUEUED while another team's run is claimed, also when
 * two server contexts share the database; teams take turns; and the configuration bounds that keep one run
 * small (RUN_TIMEOUT_MAX_SECONDS, at most 20 MCP servers) answer by field wherever a configuration is given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner, RunContext } from '../../src/engine/runner';
import { apiClient, expectProblem, waitForRunState, type ApiClient } from '../support/http';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';

/** A runner whose executions start (recorded, in order) and then hold their worker until released. */
class GatedRunner implements Runner {
  readonly name = 'echo' as const;
  readonly started: Array<{ runId: string; teamId: string; prompt: string }> = [];
  readonly #releases = new Map<string, () => void>();
  #waiters: Array<() => void> = [];
  /** Prompts whose runs finish at once instead of holding their worker. */
  passThrough = (_prompt: string) => false;

  async run(ctx: RunContext) {
    const prompt = ctx.input.kind === 'initial' ? ctx.input.prompt : '';
    this.started.push({ runId: ctx.runId, teamId: ctx.teamId, prompt });
    for (const wake of this.#waiters.splice(0)) wake();
    if (!this.passThrough(prompt)) {
      await new Promise<void>((resolve) => {
        this.#releases.set(ctx.runId, resolve);
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return { state: 'SUCCEEDED' as const };
  }

  release(runId: string): void {
    this.#releases.get(runId)?.();
  }

  releaseAll(): void {
    for (const release of this.#releases.values()) release();
  }

  /** Resolves once `count` executions have started (fails after a generous deadline). */
  async startedAtLeast(count: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (this.started.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.started.length} of ${count} runs started`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

const create = async (client: ApiClient, prompt: string): Promise<string> => {
  const res = await client.post('/agent/runs', { prompt });
  expect(res.status, res.text).toBe(200);
  return res.body.run_id as string;
};

const stateOf = async (client: ApiClient, runId: string): Promise<string> => (await client.get(`/agent/runs/${runId}`)).body.state;

describe.each(testDatabases())('fair claiming (%s)', (kind) => {
  const started: Array<{ server: TestServer; runner: GatedRunner }> = [];
  /** A server whose workers execute with a fresh GatedRunner (on `sharing`'s database when given); released and closed after all. */
  async function startGated(env: Record<string, string>, sharing?: TestServer): Promise<{ server: TestServer; runner: GatedRunner }> {
    const runner = new GatedRunner();
    const server = await startTestServer({ ...(sharing ? { sharing } : { database: kind }), env, engine: { runner, pollIntervalMs: 50 } });
    started.push({ server, runner });
    return { server, runner };
  }
  afterAll(async () => {
    for (const { server, runner } of started.reverse()) {
      runner.releaseAll();
      await server.close();
    }
  });

  it("a team at its cap waits QUEUED without holding a worker while another team's run is claimed", async () => {
    const { server, runner } = await startGated({ WORKER_CONCURRENCY: '4', TEAM_MAX_CONCURRENT_RUNS: '2' });
    const teamA = await server.createTeamWithKey('team-a', 'member');
    const teamB = await server.createTeamWithKey('team-b', 'member');
    const a = apiClient(server.apiUrl, teamA.apiKey);
    const b = apiClient(server.apiUrl, teamB.apiKey);

    const bRuns: string[] = [];
    for (let i = 0; i < 4; i++) bRuns.push(await create(b, `sleep ${i}`));
    await runner.startedAtLeast(2);
    const aRun = await create(a, 'echo hello');
    await runner.startedAtLeast(3);

    // A's run took the third worker; B's other two runs wait, and the fourth worker stays free for anyone.
    expect(runner.started.map((s) => s.teamId)).toEqual([teamB.teamId, teamB.teamId, teamA.teamId]);
    expect(runner.started[2]!.runId).toBe(aRun);
    expect(server.engine!.inFlight()).toHaveLength(3);
    expect(await Promise.all(bRuns.map((id) => stateOf(b, id)))).toEqual(['INPROGRESS', 'INPROGRESS', 'QUEUED', 'QUEUED']);

    // A slot B gives back is B's again: its next run (oldest first) is claimed.
    runner.release(bRuns[0]!);
    await waitForRunState(b, bRuns[0]!, ['SUCCEEDED']);
    await runner.startedAtLeast(4);
    expect(runner.started[3]!.runId).toBe(bRuns[2]);
    expect(await stateOf(b, bRuns[3]!)).toBe('QUEUED');
  });

  it('three teams take turns: one run of each in order of their last claim, not the oldest runs first', async () => {
    const { server, runner } = await startGated({ WORKER_CONCURRENCY: '1' });
    const [blocker, ...teams] = await Promise.all(['blocker', 'red', 'green', 'blue'].map((name) => server.createTeamWithKey(name, 'member')));
    // The only worker is busy while every team queues its runs, so the claims below choose among all of them.
    const blocking = await create(apiClient(server.apiUrl, blocker!.apiKey), 'hold the worker');
    await runner.startedAtLeast(1);
    runner.passThrough = () => true;
    for (const team of teams) {
      const client = apiClient(server.apiUrl, team.apiKey);
      for (let i = 1; i <= 3; i++) await create(client, `${team.teamName} ${i}`);
    }
    runner.release(blocking);
    await runner.startedAtLeast(10);
    expect(runner.started.slice(1).map((s) => s.prompt)).toEqual(['red 1', 'green 1', 'blue 1', 'red 2', 'green 2', 'blue 2', 'red 3', 'green 3', 'blue 3']);
  });

  it('two server contexts on one database hold one cap for a team between them', async () => {
    const env = { WORKER_CONCURRENCY: '4', TEAM_MAX_CONCURRENT_RUNS: '3' };
    const first = await startGated(env);
    const second = await startGated({ ...env, ROLE: 'worker' }, first.server);
    const api = first.server;
    const busy = apiClient(api.apiUrl, (await api.createTeamWithKey('busy', 'member')).apiKey);
    const other = apiClient(api.apiUrl, (await api.createTeamWithKey('other', 'member')).apiKey);

    const busyRuns: string[] = [];
    for (let i = 0; i < 8; i++) busyRuns.push(await create(busy, `long ${i}`));
    const startedRuns = () => first.runner.started.length + second.runner.started.length;
    const deadline = Date.now() + 15_000;
    const startedReach = async (count: number) => {
      while (startedRuns() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await startedReach(3);
    // The other team's run is claimed by one of the eight workers; the busy team has its three, no more.
    const otherRun = await create(other, 'short');
    await waitForRunState(other, otherRun, ['INPROGRESS']);
    const states = await Promise.all(busyRuns.map((id) => stateOf(busy, id)));
    expect(states.filter((s) => s === 'INPROGRESS')).toHaveLength(3);
    expect(states.filter((s) => s === 'QUEUED')).toHaveLength(5);
    // A claimed run reaches its runner after its workspace is prepared: INPROGRESS may come first.
    await startedReach(4);
    expect(startedRuns()).toBe(4);
  });

  describe('configuration bounds', () => {
    let server: TestServer;
    let admin: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ database: kind, env: { RUN_TIMEOUT_MAX_SECONDS: '3600' }, engine: false });
      admin = apiClient(server.apiUrl, (await server.createTeamWithKey('bounds', 'admin')).apiKey);
    });
    afterAll(() => server?.close());

    const mcpServers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`server-${i}`, { url: `https://mcp-${i}.example.org` }]));
    const paths = (res: { body: { errors?: Array<{ path: string }> } }) => res.body.errors?.map((e) => e.path);

    it('refuses run_timeout_seconds beyond RUN_TIMEOUT_MAX_SECONDS, naming the field, and takes the maximum itself', async () => {
      const run = await admin.post('/agent/runs', { prompt: 'p', config: { run_timeout_seconds: 3601 } });
      expectProblem(run, 400, 'invalid_request');
      expect(paths(run)).toEqual(['$.config.run_timeout_seconds']);
      expect(run.body.detail).toContain('RUN_TIMEOUT_MAX_SECONDS');

      const schedule = await admin.post('/agent/schedules', {
        name: 'long',
        cron_schedule: '0 9 * * *',
        prompt: 'p',
        agent_config: { run_timeout_seconds: 3601 },
      });
      expectProblem(schedule, 400, 'invalid_request');
      expect(paths(schedule)).toEqual(['$.agent_config.run_timeout_seconds']);

      const factory = (await admin.post('/factories', { name: 'bounds' })).body;
      const automation = await admin.post(`/factories/${factory.uid}/automations`, {
        name: 'long',
        prompt: 'p',
        config: { run_timeout_seconds: 3601 },
        triggers: [],
      });
      expectProblem(automation, 422, 'validation_failed');
      expect(paths(automation)).toEqual(['$.config.run_timeout_seconds']);

      const accepted = await admin.post('/agent/runs', { prompt: 'p', config: { run_timeout_seconds: 3600 } });
      expect(accepted.status, accepted.text).toBe(200);
      expect((await admin.get(`/agent/runs/${accepted.body.run_id}`)).body.agent_config.run_timeout_seconds).toBe(3600);
    });

    it('refuses a definition file asking for more than RUN_TIMEOUT_MAX_SECONDS', async () => {
      const factory = (await admin.post('/factories', { name: 'bounds-files', definition_source: 'files' })).body;
      const res = await admin.post(`/factories/${factory.uid}/definitions/apply`, {
        files: [{ path: 'automations/long.md', content: '---\nname: Long\ntriggers: []\nconfig:\n  run_timeout_seconds: 7200\n---\nWork long.\n' }],
      });
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.file_errors).toEqual([{ file: 'automations/long.md', message: expect.stringContaining('run_timeout_seconds') }]);
    });

    it('takes 20 MCP servers and refuses 21, naming mcp_servers, wherever a configuration is given', async () => {
      const twenty = await admin.post('/agent/runs', { prompt: 'p', config: { mcp_servers: mcpServers(20) } });
      expect(twenty.status, twenty.text).toBe(200);

      const run = await admin.post('/agent/runs', { prompt: 'p', config: { mcp_servers: mcpServers(21) } });
      expectProblem(run, 400, 'invalid_request');
      expect(paths(run)).toEqual(['$.config.mcp_servers']);

      const schedule = await admin.post('/agent/schedules', {
        name: 'many',
        cron_schedule: '0 9 * * *',
        prompt: 'p',
        agent_config: { mcp_servers: mcpServers(21) },
      });
      expectProblem(schedule, 400, 'invalid_request');
      expect(paths(schedule)).toEqual(['$.agent_config.mcp_servers']);

      const factory = (await admin.post('/factories', { name: 'many-mcp' })).body;
      const automation = await admin.post(`/factories/${factory.uid}/automations`, {
        name: 'many',
        prompt: 'p',
        config: { mcp_servers: mcpServers(21) },
        triggers: [],
      });
      expectProblem(automation, 400, 'invalid_request');
      expect(paths(automation)).toEqual(['$.config.mcp_servers']);

      const files = (await admin.post('/factories', { name: 'many-mcp-files', definition_source: 'files' })).body;
      const servers = Object.keys(mcpServers(21))
        .map((name, i) => `    ${name}:\n      url: https://mcp-${i}.example.org`)
        .join('\n');
      const applied = await admin.post(`/factories/${files.uid}/definitions/apply`, {
        files: [{ path: 'automations/many.md', content: `---\nname: Many\ntriggers: []\nconfig:\n  mcp_servers:\n${servers}\n---\nUse them all.\n` }],
      });
      expectProblem(applied, 422, 'validation_failed');
      expect(applied.body.file_errors).toEqual([{ file: 'automations/many.md', message: expect.stringContaining('at most 20') }]);
    });
  });
});
