/**
 * `schedules` in-process (support/cli.ts): against a stub API, and against the real server with a
 * clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import { RUN_ID, runCli, runItem, startCliTestServer, stubApiForFile } from './support/cli';

describe('agent-runs schedules', () => {
  const SCHEDULE = 'sch_01hzyxwvutsrqponmlkjihgfed';
  const creator = { type: 'service_account', uid: 'key_1', display_name: 'ops' };
  const schedule = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: SCHEDULE,
    name: 'Nightly deps',
    cron_schedule: '30 2 * * *',
    time_zone: 'Europe/Paris',
    enabled: true,
    prompt: 'Check the dependencies',
    last_spawn_error: null,
    agent_config: { model_id: 'gpt-x', max_turns: 20 },
    metadata: { team: 'platform' },
    created_at: '2026-05-01T12:00:00.000Z',
    updated_at: '2026-05-01T12:00:00.000Z',
    created_by: creator,
    updated_by: creator,
    history: {
      last_ran: null,
      next_run: '2026-05-02T00:30:00.000Z',
      last_run_id: null,
      last_slot: null,
      last_fired_at: null,
      last_outcome: null,
      skipped_slots: 0,
    },
    scope: { type: 'Team', uid: 'team_1' },
    ...overrides,
  });

  describe('against a stub API', () => {
    const stub = stubApiForFile();

    it('create maps --cron, --time-zone, --prompt, --skill, --model, --config-name, --metadata and --disabled into the body', async () => {
      stub.handler = () => ({ status: 201, json: schedule({ enabled: false }) });
      const result = await runCli(
        [
          'schedules',
          'create',
          '--name',
          'Nightly deps',
          '--cron',
          '30 2 * * *',
          '--time-zone',
          'Europe/Paris',
          '--prompt',
          'Check',
          '--skill',
          'acme/skills:deps',
          '--model',
          'gpt-x',
          '--config-name',
          'deps',
          '--metadata',
          'team=platform,ticket=a=b',
          '--disabled',
        ],
        stub.env,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        [
          'POST',
          '/agent/schedules',
          {
            name: 'Nightly deps',
            cron_schedule: '30 2 * * *',
            time_zone: 'Europe/Paris',
            prompt: 'Check',
            enabled: false,
            agent_config: { skill_spec: 'acme/skills:deps', model_id: 'gpt-x', name: 'deps' },
            metadata: { team: 'platform', ticket: 'a=b' },
          },
        ],
      ]);
      expect(stub.requests[0]!.headers['idempotency-key']).toBeTruthy();
      expect(result.stdout).toMatch(/^enabled:\s+no \(paused\)$/m);
      expect(result.stdout).toMatch(/^next_run:\s+2026-05-02 00:30:00Z$/m);
    });

    it('create without a prompt or a skill, or with a malformed --metadata, is a usage error and sends nothing', async () => {
      const noPrompt = await runCli(['schedules', 'create', '--name', 'x', '--cron', '@daily'], stub.env);
      const badMetadata = await runCli(['schedules', 'create', '--name', 'x', '--cron', '@daily', '--prompt', 'p', '--metadata', 'novalue'], stub.env);
      expect(noPrompt.code).toBe(1);
      expect(noPrompt.stderr).toContain('pass --prompt <text>, --prompt-file <path> or --skill <spec>');
      expect(badMetadata.code).toBe(1);
      expect(badMetadata.stderr).toContain('expected key=value');
      expect(stub.requests).toHaveLength(0);
    });

    it('update reads the schedule and PUTs it back whole with the flags given; --no-metadata clears the metadata', async () => {
      stub.handler = (request) => ({ json: request.method === 'GET' ? schedule() : schedule({ cron_schedule: '0 3 * * *' }) });
      const result = await runCli(['schedules', 'update', SCHEDULE, '--cron', '0 3 * * *', '--model', 'gpt-y', '--no-metadata'], stub.env);
      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', `/agent/schedules/${SCHEDULE}`, undefined],
        [
          'PUT',
          `/agent/schedules/${SCHEDULE}`,
          {
            name: 'Nightly deps',
            cron_schedule: '0 3 * * *',
            enabled: true,
            time_zone: 'Europe/Paris',
            prompt: 'Check the dependencies',
            agent_config: { model_id: 'gpt-y', max_turns: 20 },
          },
        ],
      ]);
      stub.requests.length = 0;
      const nothing = await runCli(['schedules', 'update', SCHEDULE], stub.env);
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('nothing to update');
      expect(stub.requests).toHaveLength(0);
    });

    it("update --skill of a skill-only schedule lets the server write the new skill's prompt", async () => {
      const skillOnly = schedule({
        prompt: 'Follow the instructions of the skill acme/skills:old.',
        agent_config: { skill_spec: 'acme/skills:old' },
        metadata: undefined,
      });
      stub.handler = () => ({ json: skillOnly });
      expect((await runCli(['schedules', 'update', SCHEDULE, '--skill', 'acme/skills:new'], stub.env)).code).toBe(0);
      expect(stub.requests[1]!.body).toEqual({
        name: 'Nightly deps',
        cron_schedule: '30 2 * * *',
        enabled: true,
        time_zone: 'Europe/Paris',
        agent_config: { skill_spec: 'acme/skills:new' },
      });
    });

    it('list, get, pause, resume, delete and runs send their requests and print for people', async () => {
      stub.handler = (request) => {
        if (request.path === '/agent/schedules') return { json: { schedules: [schedule()], page_info: { has_next_page: false, next_cursor: null } } };
        if (request.path.endsWith('/pause')) return { json: schedule({ enabled: false, history: { ...(schedule().history as object), next_run: null } }) };
        if (request.path.endsWith('/resume')) return { json: schedule() };
        if (request.path === '/agent/runs')
          return { json: { runs: [runItem({ source: 'SCHEDULED_AGENT' })], page_info: { has_next_page: false, next_cursor: null } } };
        if (request.method === 'DELETE') return { json: { success: true } };
        return { json: schedule({ last_spawn_error: 'config.environment_id names no environment of this team.' }) };
      };
      const list = await runCli(['schedules', 'list', '--limit', '10'], stub.env);
      expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+CRON\s+TIME ZONE\s+ENABLED\s+NEXT RUN\s+LAST$/);
      expect(list.stdout).toMatch(new RegExp(`^${SCHEDULE}\\s+Nightly deps\\s+30 2 \\* \\* \\*\\s+Europe/Paris\\s+yes\\s+2026-05-02 00:30:00Z`, 'm'));
      const get = await runCli(['schedules', 'get', SCHEDULE], stub.env);
      expect(get.stdout).toMatch(/^last_spawn_error:\s+config.environment_id names no environment/m);
      expect((await runCli(['schedules', 'pause', SCHEDULE], stub.env)).stdout).toBe(`scheduled agent ${SCHEDULE} paused\n`);
      expect((await runCli(['schedules', 'resume', SCHEDULE], stub.env)).stdout).toBe(`scheduled agent ${SCHEDULE} resumed; next run 2026-05-02 00:30:00Z\n`);
      expect((await runCli(['schedules', 'delete', SCHEDULE], stub.env)).stdout).toBe(`deleted scheduled agent ${SCHEDULE}\n`);
      expect(JSON.parse((await runCli(['schedules', 'delete', SCHEDULE, '--json'], stub.env)).stdout)).toEqual({ success: true });
      expect((await runCli(['schedules', 'runs', SCHEDULE], stub.env)).stdout).toContain(RUN_ID);
      expect(stub.requests.map((r) => `${r.method} ${r.path}${r.query.toString() ? `?${r.query}` : ''}`)).toEqual([
        'GET /agent/schedules?limit=10',
        `GET /agent/schedules/${SCHEDULE}`,
        `POST /agent/schedules/${SCHEDULE}/pause`,
        `POST /agent/schedules/${SCHEDULE}/resume`,
        `DELETE /agent/schedules/${SCHEDULE}`,
        `DELETE /agent/schedules/${SCHEDULE}`,
        `GET /agent/runs?schedule_id=${SCHEDULE}`,
      ]);
    });
  });

  describe('against the real server (a clock the test moves)', () => {
    let now = Date.parse('2026-11-27T08:00:00Z');
    const live = startCliTestServer({ clock: { now: () => new Date(now) }, engine: { scheduler: false } });

    let id = '';

    it('create, list, update, pause and resume', async () => {
      const created = await runCli(
        ['schedules', 'create', '--name', 'cli nightly', '--cron', '0 9 * * *', '--time-zone', 'europe/paris', '--prompt', 'Good morning', '--json'],
        live.env,
      );
      expect(created.stderr).toBe('');
      ({ id } = JSON.parse(created.stdout) as { id: string });
      expect((await runCli(['schedules', 'list'], live.env)).stdout).toMatch(
        new RegExp(`^${id}\\s+cli nightly\\s+0 9 \\* \\* \\*\\s+Europe/Paris\\s+yes\\s+2026-11-28 08:00:00Z`, 'm'),
      );
      const updated = await runCli(['schedules', 'update', id, '--cron', '30 9 * * *', '--metadata', 'from=cli'], live.env);
      expect(updated.code).toBe(0);
      expect(updated.stdout).toMatch(/^next_run:\s+2026-11-27 08:30:00Z$/m);
      expect(updated.stdout).toMatch(/^metadata:\s+from=cli$/m);
      expect((await runCli(['schedules', 'pause', id], live.env)).stdout).toBe(`scheduled agent ${id} paused\n`);
      expect((await runCli(['schedules', 'resume', id], live.env)).stdout).toBe(`scheduled agent ${id} resumed; next run 2026-11-27 08:30:00Z\n`);
    });

    it('a slot fires and `schedules runs` lists its run; delete; a refused zone exits 1 naming it', async () => {
      now = Date.parse('2026-11-27T08:30:00Z');
      const [runId] = (await live.server.fireDueSchedules()).runs;
      const runs = await runCli(['schedules', 'runs', id], live.env);
      expect(runs.stdout).toContain(runId!);
      const run = await runCli(['runs', 'get', runId!], live.env);
      expect(run.stdout).toMatch(new RegExp(`^schedule:\\s+cli nightly \\(${id}\\), slot 2026-11-27 08:30:00Z$`, 'm'));

      expect((await runCli(['schedules', 'delete', id], live.env)).code).toBe(0);
      const gone = await runCli(['schedules', 'get', id], live.env);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^error: 404 resource_not_found: /m);
      const refused = await runCli(
        ['schedules', 'create', '--name', 'x', '--cron', '0 9 * * *', '--time-zone', 'Mars/Olympus_Mons', '--prompt', 'p'],
        live.env,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: 400 invalid_request: time_zone "Mars\/Olympus_Mons" is not an IANA time zone/m);
    });
  });
});
