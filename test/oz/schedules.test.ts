// The published Oz client (`oz-agent-sdk` 1.0.0-alpha.8, `agent.schedules.*`) against this server's
// scheduled agents over real HTTP: every schedule operation in Oz's shapes and status codes, the Oz fields
// honoured, accepted or refused by name (docs/decisions.md §Oz parity, §Schedules), and a firing — the
// server's clock moved by the test — whose run the Oz client lists with `schedule_id` and retrieves with its
// `schedule`.
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import OzAPI, { BadRequestError, NotFoundError, PermissionDeniedError } from 'oz-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('oz-agent-sdk agent.schedules against this server', () => {
  let server: TestServer;
  let oz: OzAPI;
  let now = Date.parse('2026-11-27T08:00:00Z');

  beforeAll(async () => {
    // The firing loop is off: the test moves the server's clock and fires the due slots itself.
    server = await startTestServer({ clock: { now: () => new Date(now) }, engine: { scheduler: false } });
    oz = new OzAPI({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
  });
  afterAll(() => server?.close());

  it("create (201) → list → retrieve → update → pause → resume → delete, in Oz's shapes", async () => {
    const created = await oz.agent.schedules.create({
      name: 'Daily Code Review',
      cron_schedule: '0 9 * * *',
      prompt: 'Review open pull requests and provide feedback',
      enabled: true,
      team: true,
      agent_config: { name: 'reviewer', computer_use_enabled: true, worker_host: 'warp' },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^sch_/),
      name: 'Daily Code Review',
      cron_schedule: '0 9 * * *',
      enabled: true,
      prompt: 'Review open pull requests and provide feedback',
      last_spawn_error: null,
      agent_config: { name: 'reviewer' },
      history: { last_ran: null, next_run: '2026-11-27T09:00:00.000Z' },
      scope: { type: 'Team' },
    });
    expect(created.created_by).toMatchObject({ type: 'service_account' });

    const { schedules } = await oz.agent.schedules.list();
    expect(schedules.map((s) => s.id)).toContain(created.id);
    expect(schedules.map((s) => s.name)).toEqual([...schedules.map((s) => s.name)].sort());
    expect(await oz.agent.schedules.retrieve(created.id)).toEqual(created);

    const updated = await oz.agent.schedules.update(created.id, {
      name: 'Weekly Report',
      cron_schedule: '0 10 * * 1',
      enabled: true,
      prompt: 'Generate weekly status report',
    });
    expect(updated).toMatchObject({ name: 'Weekly Report', cron_schedule: '0 10 * * 1', history: { next_run: '2026-11-30T10:00:00.000Z' } });
    // Oz's PUT replaces the definition: the agent_config the update left out is gone.
    expect(updated.agent_config).toBeUndefined();

    expect(await oz.agent.schedules.pause(created.id)).toMatchObject({ enabled: false, history: { next_run: null } });
    expect(await oz.agent.schedules.resume(created.id)).toMatchObject({ enabled: true, history: { next_run: '2026-11-30T10:00:00.000Z' } });

    expect(await oz.agent.schedules.delete(created.id)).toEqual({ success: true });
    await expect(oz.agent.schedules.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(oz.agent.schedules.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a firing starts a SCHEDULED_AGENT run that runs.list finds by schedule_id and runs.retrieve shows with its schedule', async () => {
    // alpha.8 has no `metadata` parameter; Stainless clients send extra body fields as given.
    const schedule = await oz.agent.schedules.create({
      name: 'Hourly triage',
      cron_schedule: '0 * * * *',
      prompt: 'Triage new issues',
      ...({ metadata: { ticket: 'VIS-238' } } as object),
    });
    now = Date.parse('2026-11-27T09:00:00Z');
    const { runs: fired } = await server.fireDueSchedules();
    expect(fired).toHaveLength(1);

    const listed = await oz.agent.runs.list({ schedule_id: schedule.id });
    expect(listed.runs.map((r) => r.run_id)).toEqual(fired);
    const run = await oz.agent.runs.retrieve(fired[0]!);
    expect(run).toMatchObject({
      source: 'SCHEDULED_AGENT',
      prompt: 'Triage new issues',
      title: 'Hourly triage',
      schedule: { schedule_id: schedule.id, schedule_name: 'Hourly triage', cron_schedule: '0 * * * *' },
    });
    expect((run as unknown as { metadata: unknown }).metadata).toEqual({ ticket: 'VIS-238' });
    expect(run.creator).toEqual(schedule.created_by);
    expect((await oz.agent.schedules.retrieve(schedule.id)).history).toMatchObject({
      last_ran: '2026-11-27T09:00:00.000Z',
      next_run: '2026-11-27T10:00:00.000Z',
    });
    expect((await oz.agent.runs.list({ schedule_id: 'sch_of_nobody' })).runs).toEqual([]);

    await oz.agent.schedules.delete(schedule.id);
    // The run outlives its schedule, still naming it.
    expect((await oz.agent.runs.retrieve(fired[0]!)).schedule?.schedule_id).toBe(schedule.id);
    expect((await oz.agent.runs.list({ schedule_id: schedule.id })).runs.map((r) => r.run_id)).toEqual(fired);
  });

  it("refuses, naming the field, what would change the schedule's meaning; a bad expression is a 400", async () => {
    const refused = async (body: Parameters<OzAPI['agent']['schedules']['create']>[0], field: string) => {
      const err = await oz.agent.schedules.create(body).catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(BadRequestError);
      expect(JSON.stringify((err as BadRequestError).error), field).toContain(field);
    };
    await refused({ name: 'personal', cron_schedule: '0 9 * * *', prompt: 'x', team: false }, '$.team');
    await refused(
      { name: 'as agent', cron_schedule: '0 9 * * *', prompt: 'x', ...({ agent_uid: '0b0e6a0c-7a53-4ae1-9c3e-5e5c5f5e5d5c' } as object) },
      '$.agent_uid',
    );
    await refused({ name: 'plan', cron_schedule: '0 9 * * *', prompt: 'x', ...({ mode: 'plan' } as object) }, '$.mode');
    await refused(
      { name: 'claude', cron_schedule: '0 9 * * *', prompt: 'x', agent_config: { ...({ harness: { type: 'claude' } } as object) } },
      '$.agent_config.harness.type',
    );
    await refused({ name: 'bad cron', cron_schedule: 'every day at nine', prompt: 'x' }, '$.cron_schedule');
    // alpha.8 types `prompt` as required; the Oz API (and this server) take a skill instead.
    await refused({ name: 'no prompt', cron_schedule: '0 9 * * *' } as Parameters<OzAPI['agent']['schedules']['create']>[0], '$.prompt');
  });

  it('a member key reads schedules but may not write them (403)', async () => {
    const { apiKey } = await server.createTeamWithKey('oz-schedule-members', 'member');
    const member = new OzAPI({ apiKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
    expect((await member.agent.schedules.list()).schedules).toEqual([]);
    await expect(member.agent.schedules.create({ name: 'nope', cron_schedule: '0 9 * * *', prompt: 'x' })).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
