/**
 * Scheduled agents firing (contract: the Schedules tag; docs/decisions.md §Schedules), on SQLite and
 * PostgreSQL, by moving an injected clock — never by sleeping: a slot starts one run of source
 * SCHEDULED_AGENT whose `schedule` names it; missed slots start one run; a schedule whose last run is still
 * going skips; time zones and DST; pause and resume; a configuration that stopped resolving; runs outlive
 * their schedule; two server contexts on one database never fire one slot twice; teams stay apart; and the
 * firing loop of a worker fires by itself.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { fireDueSchedules } from '../../src/engine/index';
import { SchedulerLoop } from '../../src/engine/scheduler';
import { fireSlot } from '../../src/schedules/firing';
import { findDueSlotsServiceWide } from '../../src/schedules/repository';
import { testDatabases } from '../support/databases';
import { apiClient, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

describe.each(testDatabases())('scheduled agents firing (%s)', (database) => {
  const clock = new ManualClock(Date.parse('2026-11-27T08:00:00Z'));
  let server: TestServer;
  let api: ApiClient;
  let teamId: string;
  let keyId: string;

  const fire = () => fireDueSchedules(server.ctx);
  const create = async (body: Record<string, unknown>, client = api): Promise<any> => {
    const res = await client.post('/agent/schedules', body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const schedule = async (id: string): Promise<any> => (await api.get(`/agent/schedules/${id}`)).body;
  const runsOf = async (id: string, client = api): Promise<any[]> =>
    (await client.get(`/agent/runs?schedule_id=${id}&sort_by=created_at&sort_order=asc`)).body.runs;
  /** Finishes a run the way a client can: cancelling it (engine-less server: runs stay QUEUED otherwise). */
  const finish = async (runId: string) => expect((await api.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
  const at = (iso: string) => clock.set(Date.parse(iso));

  beforeAll(async () => {
    // No engine: the runs a schedule starts stay QUEUED (so overlap is under the test's control), and the
    // test fires slots itself.
    server = await startTestServer({ database, clock, engine: false, env: { SCHEDULES_PER_TEAM: '200', SCHEDULE_MIN_INTERVAL_SECONDS: '60' } });
    const team = await server.createTeamWithKey('firing', 'admin');
    ({ teamId, keyId } = team);
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  it('fires at the slot, once: one SCHEDULED_AGENT run whose schedule, creator, title, prompt, metadata and config come from the schedule', async () => {
    at('2026-11-27T08:00:00Z');
    const s = await create({
      name: 'Morning review',
      cron_schedule: '0 9 * * *',
      prompt: 'Review the pull requests',
      metadata: { team: 'platform' },
      agent_config: { name: 'reviewer' },
    });
    at('2026-11-27T08:59:59.999Z');
    expect((await fire()).runs).toEqual([]);
    at('2026-11-27T09:00:00Z');
    const { runs } = await fire();
    expect(runs).toHaveLength(1);
    expect((await fire()).runs).toEqual([]);

    const run = (await api.get(`/agent/runs/${runs[0]}`)).body;
    expect(run).toMatchObject({
      state: 'QUEUED',
      source: 'SCHEDULED_AGENT',
      title: 'Morning review',
      prompt: 'Review the pull requests',
      metadata: { team: 'platform' },
      agent_config: { name: 'reviewer' },
      creator: { type: 'service_account', uid: keyId },
      schedule: { schedule_id: s.id, schedule_name: 'Morning review', cron_schedule: '0 9 * * *', time_zone: 'UTC', scheduled_for: '2026-11-27T09:00:00.000Z' },
    });
    expect((await runsOf(s.id)).map((r) => r.run_id)).toEqual(runs);
    expect((await api.get('/agent/runs?source=SCHEDULED_AGENT')).body.runs.map((r: { run_id: string }) => r.run_id)).toContain(runs[0]);
    expect((await schedule(s.id)).history).toEqual({
      last_ran: '2026-11-27T09:00:00.000Z',
      next_run: '2026-11-28T09:00:00.000Z',
      last_run_id: runs[0],
      last_slot: '2026-11-27T09:00:00.000Z',
      last_fired_at: '2026-11-27T09:00:00.000Z',
      last_outcome: 'run_created',
      skipped_slots: 0,
    });
    await finish(runs[0]!);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  it('after downtime, the missed slots start ONE run (for the earliest), and the schedule goes on from the next future slot', async () => {
    at('2026-11-27T10:00:00Z');
    const s = await create({ name: 'Hourly', cron_schedule: '0 * * * *', prompt: 'tick' });
    at('2026-11-27T15:42:00Z'); // 11:00 … 15:00 passed while no worker ran
    const { runs } = await fire();
    expect(runs).toHaveLength(1);
    expect((await fire()).runs).toEqual([]);
    const run = (await api.get(`/agent/runs/${runs[0]}`)).body;
    expect(run.schedule.scheduled_for).toBe('2026-11-27T11:00:00.000Z');
    expect((await schedule(s.id)).history).toMatchObject({ next_run: '2026-11-27T16:00:00.000Z', last_slot: '2026-11-27T11:00:00.000Z', skipped_slots: 0 });
    await finish(runs[0]!);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  it('skips a slot while the run it started last is not finished, visibly, and fires again once it is', async () => {
    at('2026-11-27T16:00:00Z');
    const s = await create({ name: 'Slow', cron_schedule: '*/10 * * * *', prompt: 'long work' });
    at('2026-11-27T16:10:00Z');
    const [first] = (await fire()).runs;
    at('2026-11-27T16:20:00Z');
    const report = await fire();
    expect(report).toMatchObject({ runs: [], skipped: 1 });
    expect((await schedule(s.id)).history).toMatchObject({
      last_outcome: 'skipped_overlap',
      skipped_slots: 1,
      last_run_id: first,
      last_ran: '2026-11-27T16:10:00.000Z',
      last_slot: '2026-11-27T16:20:00.000Z',
      next_run: '2026-11-27T16:30:00.000Z',
    });
    expect(await runsOf(s.id)).toHaveLength(1);

    await finish(first!);
    at('2026-11-27T16:30:00Z');
    const [second] = (await fire()).runs;
    expect(second).toBeDefined();
    expect((await schedule(s.id)).history).toMatchObject({ last_outcome: 'run_created', skipped_slots: 1, last_run_id: second });
    await finish(second!);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  it('does not count a run BLOCKED on a question as busy: the next slot starts a run', async () => {
    at('2026-11-27T17:00:00Z');
    const s = await create({ name: 'Asks', cron_schedule: '*/10 * * * *', prompt: 'ask when unsure' });
    at('2026-11-27T17:10:00Z');
    const [first] = (await fire()).runs;
    // As the worker leaves a run whose agent asked a question (the engine is off here).
    await server.ctx.db.updateTable('runs').set({ state: 'BLOCKED' }).where('id', '=', first!).execute();
    at('2026-11-27T17:20:00Z');
    const [second] = (await fire()).runs;
    expect(second).toBeDefined();
    expect((await schedule(s.id)).history).toMatchObject({ last_outcome: 'run_created', skipped_slots: 0, last_run_id: second });
    await finish(first!);
    await finish(second!);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  /**
   * The slots each schedule fires for while the clock walks from the nearest next slot to the next, up to
   * `until` (each run finished before the next slot, so none is skipped).
   */
  const walk = async (ids: string[], until: string): Promise<Record<string, string[]>> => {
    const slots: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
    for (;;) {
      const next = (await Promise.all(ids.map(async (id) => (await schedule(id)).history.next_run as string))).sort()[0]!;
      if (next > until) return slots;
      at(next);
      for (const runId of (await fire()).runs) {
        const run = (await api.get(`/agent/runs/${runId}`)).body;
        slots[run.schedule.schedule_id]!.push(run.schedule.scheduled_for);
        await finish(runId);
      }
    }
  };

  it('reads the expression in its time zone across DST: once at the first minute after a skipped time, once in a repeated hour; interval expressions skip the gap and fire in both passes', async () => {
    // 2026-10-25 in Paris: 03:00 CEST → 02:00 CET, so 02:00–02:59 happens twice.
    at('2026-10-23T12:00:00Z');
    const fixed = await create({ name: 'Paris 02:30', cron_schedule: '30 2 * * *', time_zone: 'Europe/Paris', prompt: 'x' });
    const interval = await create({ name: 'Paris 02:00 and 02:30', cron_schedule: '0,30 2 * * *', time_zone: 'Europe/Paris', prompt: 'x' });
    const ny = await create({ name: 'New York 09:00', cron_schedule: '0 9 * * *', time_zone: 'America/New_York', prompt: 'x' });
    const autumn = await walk([fixed.id, interval.id, ny.id], '2026-11-02T00:00:00Z');
    expect(autumn[fixed.id]!.slice(0, 3)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(autumn[interval.id]!.slice(0, 6)).toEqual([
      '2026-10-24T00:00:00.000Z',
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T01:00:00.000Z', // 02:00 CET
      '2026-10-25T01:30:00.000Z', // 02:30 CET
    ]);
    // New York leaves DST on 2026-11-01: 09:00 is 13:00 UTC before, 14:00 UTC after.
    expect(autumn[ny.id]!.slice(-3)).toEqual(['2026-10-30T13:00:00.000Z', '2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z']);
    for (const s of [fixed, interval, ny]) await api.delete(`/agent/schedules/${s.id}`);

    // 2027-03-28 in Paris: 02:00 CET → 03:00 CEST, so 02:30 does not exist.
    at('2027-03-26T12:00:00Z');
    const springFixed = await create({ name: 'Paris 02:30 in spring', cron_schedule: '30 2 * * *', time_zone: 'Europe/Paris', prompt: 'x' });
    const springInterval = await create({ name: 'Paris 02:00 and 02:30 in spring', cron_schedule: '0,30 2 * * *', time_zone: 'Europe/Paris', prompt: 'x' });
    const spring = await walk([springFixed.id, springInterval.id], '2027-03-29T12:00:00Z');
    // The fixed time runs at the first minute after the gap (03:00 CEST = 01:00 UTC); the interval skips it.
    expect(spring[springFixed.id]).toEqual(['2027-03-27T01:30:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-29T00:30:00.000Z']);
    expect(spring[springInterval.id]).toEqual(['2027-03-27T01:00:00.000Z', '2027-03-27T01:30:00.000Z', '2027-03-29T00:00:00.000Z', '2027-03-29T00:30:00.000Z']);
    for (const s of [springFixed, springInterval]) await api.delete(`/agent/schedules/${s.id}`);
  });

  it('a paused schedule fires nothing; resumed, it goes on from the next slot after now without making up the pause', async () => {
    at('2026-11-28T00:00:00Z');
    const s = await create({ name: 'Pause me', cron_schedule: '0 * * * *', prompt: 'x' });
    await api.post(`/agent/schedules/${s.id}/pause`);
    at('2026-11-28T05:30:00Z');
    expect((await fire()).runs).toEqual([]);
    expect((await api.post(`/agent/schedules/${s.id}/resume`)).body.history.next_run).toBe('2026-11-28T06:00:00.000Z');
    expect((await fire()).runs).toEqual([]);
    at('2026-11-28T06:00:00Z');
    const { runs } = await fire();
    expect(runs).toHaveLength(1);
    expect((await api.get(`/agent/runs/${runs[0]}`)).body.schedule.scheduled_for).toBe('2026-11-28T06:00:00.000Z');
    await finish(runs[0]!);
    // A slot due when it is paused stays unfired.
    at('2026-11-28T07:00:00Z');
    await api.post(`/agent/schedules/${s.id}/pause`);
    expect((await fire()).runs).toEqual([]);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  it('a configuration that stopped resolving starts no run: last_spawn_error says why until a firing starts one again', async () => {
    at('2026-11-29T00:00:00Z');
    const env = (await api.post('/agent/environments', { name: 'short-lived' })).body;
    const s = await create({ name: 'Needs env', cron_schedule: '0 * * * *', prompt: 'x', agent_config: { environment_id: env.uid } });
    expect((await api.delete(`/agent/environments/${env.uid}`)).status).toBe(204);
    at('2026-11-29T01:00:00Z');
    expect(await fire()).toMatchObject({ runs: [], spawnFailed: 1 });
    const failed = await schedule(s.id);
    expect(failed.last_spawn_error).toContain('environment');
    expect(failed.history).toMatchObject({ last_outcome: 'spawn_failed', last_ran: null, next_run: '2026-11-29T02:00:00.000Z' });
    expect(failed.environment).toBeUndefined();
    expect(await runsOf(s.id)).toEqual([]);

    await api.request('PUT', `/agent/schedules/${s.id}`, { body: { name: 'Needs env', cron_schedule: '0 * * * *', enabled: true, prompt: 'x' } });
    at('2026-11-29T02:00:00Z');
    const { runs } = await fire();
    expect(runs).toHaveLength(1);
    expect((await schedule(s.id)).last_spawn_error).toBeNull();
    await finish(runs[0]!);
    await api.delete(`/agent/schedules/${s.id}`);
  });

  it('the runs of a deleted schedule stay, with their schedule, and schedule_id still finds them', async () => {
    at('2026-11-30T00:00:00Z');
    const s = await create({ name: 'Short-lived', cron_schedule: '0 * * * *', prompt: 'x' });
    at('2026-11-30T01:00:00Z');
    const [runId] = (await fire()).runs;
    await api.request('PUT', `/agent/schedules/${s.id}`, { body: { name: 'Renamed later', cron_schedule: '30 * * * *', enabled: true, prompt: 'y' } });
    expect((await api.delete(`/agent/schedules/${s.id}`)).body).toEqual({ success: true });
    at('2026-11-30T02:00:00Z');
    expect((await fire()).runs).toEqual([]);
    const run = (await api.get(`/agent/runs/${runId}`)).body;
    expect(run.schedule).toMatchObject({ schedule_id: s.id, schedule_name: 'Short-lived', cron_schedule: '0 * * * *' });
    expect((await runsOf(s.id)).map((r) => r.run_id)).toEqual([runId]);
    expect(await runsOf('sch_of_nobody')).toEqual([]);
    await finish(runId!);
  });

  it("teams stay apart: a schedule's runs are its team's, and another team's schedule_id filter finds none of them", async () => {
    at('2026-12-01T00:00:00Z');
    const otherTeam = await server.createTeamWithKey('firing-neighbours', 'admin');
    const neighbour = apiClient(server.apiUrl, otherTeam.apiKey);
    const mine = await create({ name: 'Mine', cron_schedule: '0 * * * *', prompt: 'mine' });
    const theirs = await create({ name: 'Theirs', cron_schedule: '0 * * * *', prompt: 'theirs' }, neighbour);
    at('2026-12-01T01:00:00Z');
    expect((await fire()).runs).toHaveLength(2);
    const [myRun] = await runsOf(mine.id);
    const [theirRun] = await runsOf(theirs.id, neighbour);
    expect(myRun.schedule.schedule_id).toBe(mine.id);
    expect(theirRun.creator.uid).toBe(otherTeam.keyId);
    expect(theirRun.scope.uid).toBe(otherTeam.teamId);
    expect(await runsOf(theirs.id)).toEqual([]);
    expect(await runsOf(mine.id, neighbour)).toEqual([]);
    expect((await api.get(`/agent/runs/${theirRun.run_id}`)).status).toBe(404);
    await finish(myRun.run_id);
    expect((await neighbour.post(`/agent/runs/${theirRun.run_id}/cancel`)).status).toBe(200);
    await api.delete(`/agent/schedules/${mine.id}`);
    await neighbour.delete(`/agent/schedules/${theirs.id}`);
    void teamId;
  });

  describe('two server contexts on one database', () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startTestServer({ sharing: server, clock, engine: false });
    });
    afterAll(() => second?.close());

    it('never fire one slot twice: both see the same due slots, one claims each', async () => {
      at('2026-12-01T23:59:30Z');
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await create({ name: `race ${i}`, cron_schedule: `${i} * * * *`, prompt: 'race' })).id);
      const hours = ['00', '01', '02'];
      for (const hour of hours) {
        at(`2026-12-02T${hour}:59:00Z`);
        const now = clock.now().toISOString();
        // Both processes read the due slots before either claims one (the race a database lock must settle).
        const [seenByFirst, seenBySecond] = [await findDueSlotsServiceWide(server.ctx.db, now, 100), await findDueSlotsServiceWide(second.ctx.db, now, 100)];
        expect(seenBySecond.map((s) => s.id).sort()).toEqual(seenByFirst.map((s) => s.id).sort());
        expect(seenByFirst).toHaveLength(40);
        const firstOutcomes = [];
        const secondOutcomes = [];
        if (database.dialect === 'postgres') {
          // Truly at once, over two connection pools: the claim's row lock and compare-and-set decide.
          const results = await Promise.all([
            Promise.all(seenByFirst.map((slot) => fireSlot(server.ctx, slot))),
            Promise.all(seenBySecond.map((slot) => fireSlot(second.ctx, slot))),
          ]);
          firstOutcomes.push(...results[0]);
          secondOutcomes.push(...results[1]);
        } else {
          // SQLite serialises writers; interleave one claim of each process at a time.
          for (let i = 0; i < 40; i++) {
            firstOutcomes.push(await fireSlot(server.ctx, seenByFirst[i]!));
            secondOutcomes.push(await fireSlot(second.ctx, seenBySecond[i]!));
          }
        }
        const created = [...firstOutcomes, ...secondOutcomes].filter((o) => o.outcome === 'run_created');
        const notClaimed = [...firstOutcomes, ...secondOutcomes].filter((o) => o.outcome === 'not_claimed');
        expect(created).toHaveLength(40);
        expect(notClaimed).toHaveLength(40);
        expect((await fireDueSchedules(second.ctx)).runs).toEqual([]);
        for (const o of created) if (o.outcome === 'run_created') await finish(o.runId);
      }
      for (const [i, id] of ids.entries()) {
        const runs = await runsOf(id);
        expect(runs.map((r) => r.schedule.scheduled_for)).toEqual(hours.map((h) => `2026-12-02T${h}:${String(i).padStart(2, '0')}:00.000Z`));
      }
      for (const id of ids) await api.delete(`/agent/schedules/${id}`);
    });

    it('whole passes of both processes at the same time leave one run per slot', async () => {
      at('2026-12-03T00:00:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await create({ name: `pass ${i}`, cron_schedule: `${(i * 2) % 60} * * * *`, prompt: 'pass' })).id);
      at('2026-12-03T01:00:00Z');
      const reports =
        database.dialect === 'postgres'
          ? await Promise.all([fireDueSchedules(server.ctx), fireDueSchedules(second.ctx)])
          : [await fireDueSchedules(server.ctx), await fireDueSchedules(second.ctx)];
      expect(reports.flatMap((r) => r.runs)).toHaveLength(30);
      expect(reports.reduce((n, r) => n + r.errors, 0)).toBe(0);
      for (const id of ids) expect(await runsOf(id)).toHaveLength(1);
      for (const run of reports.flatMap((r) => r.runs)) await finish(run);
      for (const id of ids) await api.delete(`/agent/schedules/${id}`);
    });
  });
});

describe('the firing loop of a worker process', () => {
  it('looks at the database only when the clock reaches the nearest slot, when woken, or when the refresh interval passes', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T08:00:00Z'));
    const server = await startTestServer({ clock, engine: { scheduler: false }, env: { SCHEDULER_REFRESH_SECONDS: '3600' } });
    try {
      const { apiKey } = await server.createTeamWithKey('ticking', 'admin');
      const api = apiClient(server.apiUrl, apiKey);
      const loop = new SchedulerLoop(server.ctx);
      expect(await loop.tick()).toEqual({ runs: [], skipped: 0, spawnFailed: 0, notClaimed: 0, errors: 0 }); // the first tick reads
      expect(await loop.tick()).toBeUndefined(); // no schedule known: nothing to read until the refresh (09:00)
      // Created as by another process: this loop is not woken, so it learns of it at the refresh.
      await api.post('/agent/schedules', { name: 'Tick', cron_schedule: '0,30 * * * *', prompt: 'tick' });
      clock.set(Date.parse('2026-11-27T08:30:00Z'));
      expect(await loop.tick()).toBeUndefined();
      clock.set(Date.parse('2026-11-27T09:00:00Z'));
      const late = await loop.tick();
      expect(late?.runs).toHaveLength(1); // the 08:30 slot, SCHEDULER_REFRESH_SECONDS late at most
      await api.post(`/agent/runs/${late!.runs[0]}/cancel`);
      // Now the loop knows the nearest slot (09:30) and reads nothing before it.
      clock.set(Date.parse('2026-11-27T09:29:59Z'));
      expect(await loop.tick()).toBeUndefined();
      clock.set(Date.parse('2026-11-27T09:30:00Z'));
      expect((await loop.tick())?.runs).toHaveLength(1);
      expect(await loop.tick()).toBeUndefined();
      loop.wake(); // what a change in this process does
      expect(await loop.tick()).toMatchObject({ runs: [] });
    } finally {
      await server.close();
    }
  });

  it('fires a due slot by itself once the injected clock reaches it', async () => {
    const clock = new ManualClock(Date.parse('2026-11-27T08:00:00Z'));
    const server = await startTestServer({ clock, env: { SCHEDULER_INTERVAL_SECONDS: '1', SCHEDULER_REFRESH_SECONDS: '3600' } });
    try {
      const { apiKey } = await server.createTeamWithKey('looped', 'admin');
      const api = apiClient(server.apiUrl, apiKey);
      const s = (await api.post('/agent/schedules', { name: 'Looped', cron_schedule: '0 9 * * *', prompt: 'by itself' })).body;
      expect((await api.get(`/agent/runs?schedule_id=${s.id}`)).body.runs).toEqual([]);
      clock.set(Date.parse('2026-11-27T09:00:00Z'));
      const deadline = Date.now() + 5000;
      let runs: any[] = [];
      while (runs.length === 0 && Date.now() < deadline) {
        await delay(100);
        runs = (await api.get(`/agent/runs?schedule_id=${s.id}`)).body.runs;
      }
      expect(runs).toHaveLength(1);
      expect(runs[0].schedule.scheduled_for).toBe('2026-11-27T09:00:00.000Z');
    } finally {
      await server.close();
    }
  });
});
