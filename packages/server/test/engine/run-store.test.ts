import { beforeEach, describe, expect, it } from 'vitest';
import { conversationIdFor, createConversationWriter, createFollowupInbox } from '../../src/runs/conversation';
import { readConversation } from '../../src/runs/conversation-stream';
import { readEvents } from '../../src/runs/events';
import { addRunUsage, claimNextRun, finishExecution, planExecution, startExecution } from '../../src/runs/executions';
import type { RunRow } from '../../src/runs/repository';
import type { RunState } from '../../src/runs/states';
import { acceptFollowup, requestCancel, transition } from '../../src/runs/transitions';
import { testDatabases } from '../support/databases';
import { advance, createRun, createTeam, getRun, useEngineDatabase, type EngineTestContext } from './helpers';

const WORKER = 'worker-a';
const lease = (ctx: EngineTestContext) => new Date(ctx.clock.now().getTime() + 30_000).toISOString();

/** Claims and starts `run` (QUEUED → CLAIMED → INPROGRESS) under WORKER. */
async function startRun(ctx: EngineTestContext, run: RunRow): Promise<RunRow> {
  const claimed = await claimNextRun(ctx, WORKER);
  expect(claimed?.id).toBe(run.id);
  const started = await startExecution(ctx, claimed!, WORKER, lease(ctx), 'echo');
  if (!started.ok) throw new Error('start failed');
  return started.run;
}

/** Forces a run into `state` through the store (as the state machine would get there). */
async function putInState(ctx: EngineTestContext, run: RunRow, state: RunState): Promise<RunRow> {
  if (state === 'QUEUED') return run;
  if (state === 'PENDING' || state === 'BLOCKED') {
    const r = await transition(ctx, run.team_id, run.id, { from: ['QUEUED'], to: state });
    if (!r.ok) throw new Error('transition failed');
    return r.run;
  }
  const claimed = await claimNextRun(ctx, WORKER);
  if (state === 'CLAIMED') return claimed!;
  const started = await startRun2(ctx, claimed!);
  if (state === 'INPROGRESS') return started;
  if (state === 'CANCELLED') {
    const c = await requestCancel(ctx, run.team_id, run.id);
    if (!c.ok) throw new Error('cancel failed');
    return c.run;
  }
  const finished = await finishExecution(
    ctx,
    started,
    WORKER,
    state === 'SUCCEEDED' ? { state } : { state: state as 'FAILED' | 'ERROR', statusMessage: { message: 'boom' } },
  );
  if (!finished.ok) throw new Error('finish failed');
  return finished.run;
}
async function startRun2(ctx: EngineTestContext, claimed: RunRow): Promise<RunRow> {
  const started = await startExecution(ctx, claimed, WORKER, lease(ctx), 'echo');
  if (!started.ok) throw new Error('start failed');
  return started.run;
}

describe.each(testDatabases())('run store (%s)', (kind) => {
  const fx = useEngineDatabase(kind);
  let ctx: EngineTestContext;
  let team: string;
  beforeEach(() => {
    ctx = fx.ctx;
    team = fx.team;
  });

  describe('usage', () => {
    const spent = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
    // Unpriced (no MODEL_PRICES): the run's usage is its tokens alone. The team's monthly counter, added to in
    // the same transaction, is the budgets' recorder's (test/budgets).
    const charge = [undefined, async () => {}] as const;

    it('adds up as it is spent, in any state, without counting as a change of the run', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      advance(ctx, 1000);
      await addRunUsage(ctx, team, run.id, spent(10, 2), ...charge);
      const working = await getRun(ctx, run);
      expect(JSON.parse(working.usage!)).toEqual(spent(10, 2)); // visible while INPROGRESS
      expect(working.updated_at).toBe(started.updated_at);
      expect(working.event_seq).toBe(started.event_seq);

      await addRunUsage(ctx, team, run.id, spent(5, 1), ...charge);
      await requestCancel(ctx, team, run.id);
      await addRunUsage(ctx, team, run.id, spent(1, 1), ...charge); // the call that was answered as the cancel came in
      const cancelled = await getRun(ctx, run);
      expect(cancelled.state).toBe('CANCELLED');
      expect(JSON.parse(cancelled.usage!)).toEqual(spent(16, 4));
    });

    it("is scoped to the run's team", async () => {
      const run = await createRun(ctx, team);
      await addRunUsage(ctx, await createTeam(ctx), run.id, spent(10, 2), ...charge);
      expect((await getRun(ctx, run)).usage).toBeNull();
    });
  });

  describe('transitions', () => {
    it('QUEUED → CLAIMED → INPROGRESS → SUCCEEDED sets updated_at every time, started_at once and completed_at at the end', async () => {
      const run = await createRun(ctx, team);
      advance(ctx, 1000);
      const claimed = await claimNextRun(ctx, WORKER);
      expect(claimed).toMatchObject({ state: 'CLAIMED', lease_owner: WORKER, claim_count: 1, updated_at: '2026-01-01T00:00:01.000Z', started_at: null });
      advance(ctx, 1000);
      const started = await startRun2(ctx, claimed!);
      expect(started).toMatchObject({ state: 'INPROGRESS', updated_at: '2026-01-01T00:00:02.000Z', started_at: '2026-01-01T00:00:02.000Z', runner: 'echo' });
      advance(ctx, 1000);
      const finished = await finishExecution(ctx, started, WORKER, { state: 'SUCCEEDED' });
      expect(finished.ok).toBe(true);
      const done = await getRun(ctx, run);
      expect(done).toMatchObject({
        state: 'SUCCEEDED',
        updated_at: '2026-01-01T00:00:03.000Z',
        started_at: '2026-01-01T00:00:02.000Z',
        completed_at: '2026-01-01T00:00:03.000Z',
        lease_owner: null,
        lease_expires_at: null,
        status_message: null,
      });
      const states = (await readEvents(ctx, team, run.id)).filter((e) => e.kind === 'state').map((e) => e.data);
      expect(states).toEqual([
        { run_id: run.id, state: 'QUEUED', updated_at: '2026-01-01T00:00:00.000Z' },
        { run_id: run.id, state: 'CLAIMED', updated_at: '2026-01-01T00:00:01.000Z' },
        { run_id: run.id, state: 'INPROGRESS', updated_at: '2026-01-01T00:00:02.000Z' },
        { run_id: run.id, state: 'SUCCEEDED', updated_at: '2026-01-01T00:00:03.000Z' },
      ]);
    });

    it('a failure carries its status message on the run and in the state event', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      const statusMessage = { message: 'agent command exited with status 2', error_code: 'agent_command_failed', retryable: false };
      await finishExecution(ctx, started, WORKER, { state: 'FAILED', statusMessage });
      const done = await getRun(ctx, run);
      expect(done.state).toBe('FAILED');
      expect(JSON.parse(done.status_message!)).toEqual(statusMessage);
      const last = (await readEvents(ctx, team, run.id)).at(-1)!;
      expect(last).toMatchObject({ kind: 'state', data: { state: 'FAILED', status_message: statusMessage } });
    });

    it('a transition from a state the run is not in changes nothing and says so', async () => {
      const run = await createRun(ctx, team);
      const result = await transition(ctx, team, run.id, { from: ['INPROGRESS'], to: 'SUCCEEDED' });
      expect(result).toMatchObject({ ok: false, reason: 'unexpected_state', run: { state: 'QUEUED' } });
      const after = await getRun(ctx, run);
      expect(after.event_seq).toBe(run.event_seq);
      expect(after.updated_at).toBe(run.updated_at);
    });

    it("another team's run is not found, for every operation", async () => {
      const run = await createRun(ctx, team);
      const other = await createTeam(ctx);
      expect(await transition(ctx, other, run.id, { from: ['QUEUED'], to: 'CANCELLED' })).toEqual({ ok: false, reason: 'not_found' });
      expect(await requestCancel(ctx, other, run.id)).toEqual({ ok: false, reason: 'not_found' });
      expect(await acceptFollowup(ctx, other, run.id, 'hi')).toEqual({ ok: false, reason: 'not_found' });
      expect(await readConversation(ctx, other, run.id)).toBeUndefined();
      expect(await readEvents(ctx, other, run.id)).toEqual([]);
      expect((await getRun(ctx, run)).state).toBe('QUEUED');
    });

    it('a finishing worker that no longer holds the lease writes nothing (never overwrites CANCELLED)', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      await requestCancel(ctx, team, run.id);
      expect(await finishExecution(ctx, started, WORKER, { state: 'SUCCEEDED' })).toEqual({ ok: false, reason: 'not_owned' });
      expect((await getRun(ctx, run)).state).toBe('CANCELLED');
    });
  });

  describe('cancel', () => {
    it.each(['QUEUED', 'CLAIMED', 'INPROGRESS', 'BLOCKED'] as const)('cancels a %s run at once and clears its lease', async (state) => {
      const run = await putInState(ctx, await createRun(ctx, team), state);
      advance(ctx, 5000);
      const result = await requestCancel(ctx, team, run.id);
      expect(result).toMatchObject({ ok: true, run: { state: 'CANCELLED', lease_owner: null, lease_expires_at: null } });
      const after = await getRun(ctx, run);
      expect(after.completed_at).toBe(after.updated_at);
      expect(after.cancel_requested_at).toBe(after.updated_at);
      expect((await readEvents(ctx, team, run.id)).at(-1)).toMatchObject({ kind: 'state', data: { state: 'CANCELLED' } });
    });

    it.each(['PENDING', 'SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'] as const)(
      'cancelling a %s run changes nothing and writes no event (the API answers by its state)',
      async (state) => {
        const run = await putInState(ctx, await createRun(ctx, team), state);
        const before = await getRun(ctx, run);
        expect(await requestCancel(ctx, team, run.id)).toMatchObject({ ok: false, reason: 'not_cancellable', run: { state } });
        expect(await getRun(ctx, run)).toEqual(before);
      },
    );

    it('a run cancelled while CLAIMED cannot be started by its worker', async () => {
      await createRun(ctx, team);
      const claimed = (await claimNextRun(ctx, WORKER))!;
      await requestCancel(ctx, team, claimed.id);
      const started = await startExecution(ctx, claimed, WORKER, lease(ctx), 'echo');
      expect(started).toMatchObject({ ok: false, reason: 'unexpected_state', run: { state: 'CANCELLED' } });
    });
  });

  describe('follow-ups', () => {
    it.each(['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS'] as const)(
      'to a %s run: queued in the inbox, visible in a new turn, state unchanged',
      async (state) => {
        const run = await putInState(ctx, await createRun(ctx, team), state);
        const result = await acceptFollowup(ctx, team, run.id, 'also do this');
        expect(result).toMatchObject({ ok: true, requeued: false, run: { state } });
        const conversation = await readConversation(ctx, team, run.id);
        expect(conversation!.steps).toHaveLength(2);
        expect(conversation!.steps[1]!.messages).toEqual([
          { message_ids: [result.ok ? result.followupId : ''], role: 'user', timestamp: expect.any(String), content: [{ type: 'text', text: 'also do this' }] },
        ]);
        expect(await createFollowupInbox(ctx, run).take()).toEqual(['also do this']);
        expect(await createFollowupInbox(ctx, run).take()).toEqual([]);
      },
    );

    it.each(['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR'] as const)('to a %s run: re-queues it with completed_at and status message cleared', async (state) => {
      const run = await putInState(ctx, await createRun(ctx, team), state);
      ctx.queuedNotifications = 0;
      const result = await acceptFollowup(ctx, team, run.id, 'continue please');
      expect(result).toMatchObject({ ok: true, requeued: true, run: { state: 'QUEUED', completed_at: null, status_message: null, claim_count: 0 } });
      expect(ctx.queuedNotifications).toBe(1);
      expect((await readEvents(ctx, team, run.id)).at(-1)).toMatchObject({ kind: 'state', data: { state: 'QUEUED' } });
    });

    it.each(['CANCELLED'] as const)('to a %s run is a conflict and records nothing', async (state) => {
      const run = await putInState(ctx, await createRun(ctx, team), state);
      const before = await getRun(ctx, run);
      expect(await acceptFollowup(ctx, team, run.id, 'hello?')).toMatchObject({ ok: false, reason: 'conflict', run: { state } });
      expect((await getRun(ctx, run)).event_seq).toBe(before.event_seq);
      expect((await readConversation(ctx, team, run.id))!.steps).toHaveLength(1);
    });

    it('a resumed run is planned with the follow-ups as input and the finished conversation as history', async () => {
      const run = await createRun(ctx, team, { prompt: 'first task' });
      const started = await startRun(ctx, run);
      const plan1 = await planExecution(ctx, started, WORKER);
      expect(plan1).toMatchObject({ input: { kind: 'initial', prompt: 'first task' }, history: [] });
      await createConversationWriter(ctx, started, plan1.stepId, WORKER, ctx.settings.limits.runOutputBytes).append('assistant', [
        { type: 'text', text: 'done: first task' },
      ]);
      await finishExecution(ctx, started, WORKER, { state: 'SUCCEEDED' });

      await acceptFollowup(ctx, team, run.id, 'second task');
      await acceptFollowup(ctx, team, run.id, 'third task');
      const resumed = await startRun(ctx, run);
      const plan2 = await planExecution(ctx, resumed, WORKER);
      expect(plan2.input).toEqual({ kind: 'resume', messages: ['second task', 'third task'] });
      expect(plan2.history).toEqual([
        {
          position: 1,
          messages: [
            { role: 'user', timestamp: expect.any(String), content: [{ type: 'text', text: 'first task' }] },
            { role: 'assistant', timestamp: expect.any(String), content: [{ type: 'text', text: 'done: first task' }] },
          ],
        },
      ]);
      const conversation = await readConversation(ctx, team, run.id);
      expect(plan2.stepId).toBe(conversation!.steps[2]!.id);
      // delivered with the input: the inbox is empty
      expect(await createFollowupInbox(ctx, resumed).take()).toEqual([]);
    });

    it('a follow-up accepted between the start and the plan of the first execution leaves its output in turn 1', async () => {
      const run = await createRun(ctx, team, { prompt: 'first' });
      const started = await startRun(ctx, run);
      await acceptFollowup(ctx, team, run.id, 'second');
      const plan = await planExecution(ctx, started, WORKER);
      expect(plan.input).toEqual({ kind: 'initial', prompt: 'first' });
      await createConversationWriter(ctx, started, plan.stepId, WORKER, ctx.settings.limits.runOutputBytes).append('assistant', [
        { type: 'text', text: 'got: first' },
      ]);
      const steps = (await readConversation(ctx, team, run.id))!.steps;
      expect(steps.map((s) => s.messages.map((m) => [m.role, m.content[0]]))).toEqual([
        [
          ['user', { type: 'text', text: 'first' }],
          ['assistant', { type: 'text', text: 'got: first' }],
        ],
        [['user', { type: 'text', text: 'second' }]],
      ]);
    });

    it('a follow-up that arrives after the runner last read its inbox re-queues the run when it finishes', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      await planExecution(ctx, started, WORKER);
      await acceptFollowup(ctx, team, run.id, 'late one');
      const finished = await finishExecution(ctx, started, WORKER, { state: 'SUCCEEDED' });
      expect(finished).toMatchObject({ ok: true, requeued: true, run: { state: 'QUEUED' } });
      const states = (await readEvents(ctx, team, run.id)).filter((e) => e.kind === 'state').map((e) => e.data.state);
      expect(states.slice(-2)).toEqual(['SUCCEEDED', 'QUEUED']);
      const resumed = await startRun(ctx, run);
      expect((await planExecution(ctx, resumed, WORKER)).input).toEqual({ kind: 'resume', messages: ['late one'] });
    });
  });

  describe('event log and conversation', () => {
    it('numbers events 1, 2, 3, … per run, also under concurrent writers', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      const plan = await planExecution(ctx, started, WORKER);
      const writer = createConversationWriter(ctx, started, plan.stepId, WORKER, ctx.settings.limits.runOutputBytes);
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          writer.append('assistant', [
            { type: 'text', text: `a${i}` },
            { type: 'text', text: `b${i}` },
          ]),
        ),
        ...Array.from({ length: 10 }, (_, i) => acceptFollowup(ctx, team, run.id, `f${i}`)),
      ]);
      const events = await readEvents(ctx, team, run.id);
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
      expect((await getRun(ctx, run)).event_seq).toBe(events.length);
      // 3 state + prompt + 40 blocks + 10 follow-ups
      expect(events).toHaveLength(3 + 1 + 40 + 10);
      expect(await readEvents(ctx, team, run.id, 50, 10)).toHaveLength(4);
    });

    it('serves the Oz conversation shape: steps per turn, messages grouped by message id, blocks in order', async () => {
      const run = await createRun(ctx, team, { prompt: 'build it' });
      const started = await startRun(ctx, run);
      const plan = await planExecution(ctx, started, WORKER);
      const writer = createConversationWriter(ctx, started, plan.stepId, WORKER, ctx.settings.limits.runOutputBytes);
      advance(ctx, 10);
      await writer.append('assistant', [
        { type: 'text', text: 'reading the skill' },
        { type: 'action', id: 'call_1', category: 'skill', name: 'read_skill', input: { name: 'create-skill', bundled_skill_id: 'create-skill' } },
      ]);
      await writer.append('tool', [
        { type: 'action_result', action_id: 'call_1', category: 'skill', name: 'read_skill', state: 'completed', output: { text: 'ok' } },
      ]);
      await acceptFollowup(ctx, team, run.id, 'and test it');
      expect(await createFollowupInbox(ctx, started).take()).toEqual(['and test it']);
      await writer.startTurn('testing');
      await writer.append('assistant', [{ type: 'event', name: 'stderr', data: { text: 'warn\n' } }]);
      await finishExecution(ctx, started, WORKER, { state: 'SUCCEEDED' });

      const conversation = await readConversation(ctx, team, run.id);
      expect(conversation!.conversation_id).toBe(conversationIdFor(run.id));
      const [step1, step2] = conversation!.steps;
      expect(conversation!.steps).toHaveLength(2);
      expect(step1).toMatchObject({ started_at: '2026-01-01T00:00:00.000Z', completed_at: '2026-01-01T00:00:00.010Z', steps: [] });
      expect(step1!.messages.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
        ['user', ['text']],
        ['assistant', ['text', 'action']],
        ['tool', ['action_result']],
      ]);
      expect(step1!.messages.every((m) => m.message_ids!.length === 1)).toBe(true);
      expect(step2).toMatchObject({ description: 'testing', completed_at: '2026-01-01T00:00:00.010Z' });
      expect(step2!.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', [{ type: 'text', text: 'and test it' }]],
        ['assistant', [{ type: 'event', name: 'stderr', data: { text: 'warn\n' } }]],
      ]);
      // content events carry what SSE sends
      const content = (await readEvents(ctx, team, run.id)).filter((e) => e.kind === 'content');
      expect(content[1]!.data).toEqual({
        run_id: run.id,
        step_id: step1!.id,
        message_id: step1!.messages[1]!.message_ids![0],
        role: 'assistant',
        timestamp: '2026-01-01T00:00:00.010Z',
        block: { type: 'text', text: 'reading the skill' },
      });
    });

    it('a writer whose run was cancelled cannot add to the conversation', async () => {
      const run = await createRun(ctx, team);
      const started = await startRun(ctx, run);
      const plan = await planExecution(ctx, started, WORKER);
      const writer = createConversationWriter(ctx, started, plan.stepId, WORKER, ctx.settings.limits.runOutputBytes);
      await requestCancel(ctx, team, run.id);
      await expect(writer.append('assistant', [{ type: 'text', text: 'late' }])).rejects.toThrow(/no longer executed/);
    });

    it('wakes in-process listeners after each commit', async () => {
      const run = await createRun(ctx, team);
      let wakes = 0;
      const off = ctx.runSignals.onRunEvent(run.id, () => {
        wakes++;
      });
      await claimNextRun(ctx, WORKER);
      expect(wakes).toBe(1);
      await acceptFollowup(ctx, team, run.id, 'x');
      await requestCancel(ctx, team, run.id);
      expect(wakes).toBe(3);
      off();
      await requestCancel(ctx, team, run.id);
      expect(wakes).toBe(3);
    });
  });
});
