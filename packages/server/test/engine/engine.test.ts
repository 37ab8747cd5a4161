import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock';
import { startEngine, type Engine, type EngineOptions } from '../../src/engine';
import { abortKindOf } from '../../src/runs/signals';
import { readConversation } from '../../src/runs/conversation-stream';
import { readEvents } from '../../src/runs/events';
import { acceptFollowup, requestCancel } from '../../src/runs/transitions';
import type { RunContext, RunOutcome, Runner } from '../../src/engine/runner';
import { EchoRunner } from '../../src/engine/runners/echo';
import { RUNNER_CRASHED } from '../../src/engine/worker';
import { testDatabases } from '../support/databases';
import { createRun, getRun, useEngineDatabase, waitFor, waitForState, type EngineTestContext } from './helpers';

/** A runner whose behaviour each test writes; records what it was given. */
class ScriptedRunner implements Runner {
  readonly name = 'echo' as const;
  readonly calls: RunContext[] = [];
  constructor(private readonly script: (ctx: RunContext) => Promise<RunOutcome>) {}
  run(ctx: RunContext): Promise<RunOutcome> {
    this.calls.push(ctx);
    return this.script(ctx);
  }
}

/** Resolves when the signal aborts (a runner that works "forever"). */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** A heartbeat interval longer than any test: what a test sees happen did not wait for one. */
const NO_HEARTBEAT_MS = 3_600_000;

const stateNames = async (ctx: EngineTestContext, run: { id: string; team_id: string }) =>
  (await readEvents(ctx, run.team_id, run.id)).filter((e) => e.kind === 'state').map((e) => e.data.state);

describe.each(testDatabases())('engine (%s)', (kind) => {
  const fx = useEngineDatabase(kind, { clock: () => systemClock, settings: { workerConcurrency: 2, echoDelayMs: 20 } });
  let engine: Engine | undefined;

  function start(options: EngineOptions = {}): Engine {
    const ctx = fx.ctx;
    engine = startEngine(ctx, { pollIntervalMs: 20, sweeper: false, ...options });
    ctx.notifyRunQueued = () => engine?.notifyRunQueued();
    return engine;
  }
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('executes a queued run with the echo runner: QUEUED → CLAIMED → INPROGRESS → SUCCEEDED, prompt echoed', async () => {
    const { ctx, team } = fx;
    start();
    const run = await createRun(ctx, team, { prompt: 'hello engine' });
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['SUCCEEDED']);
    expect(done).toMatchObject({ runner: 'echo', lease_owner: null, claim_count: 1 });
    expect(done.started_at).not.toBeNull();
    expect(await stateNames(ctx, run)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    const conversation = await readConversation(ctx, team, run.id);
    expect(conversation!.steps).toHaveLength(1);
    expect(conversation!.steps[0]!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'hello engine' }]],
      ['assistant', [{ type: 'text', text: 'hello engine' }]],
    ]);
  });

  it('never runs more than WORKER_CONCURRENCY runs at once', async () => {
    const { ctx, team } = fx;
    let running = 0;
    let peak = 0;
    let finished = 0;
    const runner = new ScriptedRunner(async () => {
      running++;
      peak = Math.max(peak, running);
      // Each run waits for a second one beside it (however long preparing a run takes), unless none is left.
      await waitFor(async () => running >= 2 || finished >= 5);
      await delay(30);
      running--;
      finished++;
      return { state: 'SUCCEEDED' };
    });
    const runs = await Promise.all(Array.from({ length: 6 }, () => createRun(ctx, team)));
    start({ runner });
    for (const run of runs) await waitForState(ctx, run, ['SUCCEEDED']);
    expect(peak).toBe(2);
  });

  it('delivers a follow-up sent while the run is INPROGRESS at its next turn, in a new step', async () => {
    const { ctx, team } = fx;
    start({ runner: new EchoRunner(300) });
    const run = await createRun(ctx, team, { prompt: 'first' });
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['INPROGRESS']);
    const followup = await acceptFollowup(ctx, team, run.id, 'second');
    expect(followup).toMatchObject({ ok: true, requeued: false, run: { state: 'INPROGRESS' } });
    await waitForState(ctx, run, ['SUCCEEDED']);
    const steps = (await readConversation(ctx, team, run.id))!.steps;
    expect(steps.map((s) => s.messages.map((m) => [m.role, (m.content[0] as { text: string }).text]))).toEqual([
      [
        ['user', 'first'],
        ['assistant', 'first'],
      ],
      [
        ['user', 'second'],
        ['assistant', 'second'],
      ],
    ]);
    expect(steps.every((s) => s.completed_at !== undefined)).toBe(true);
  });

  it('resumes a SUCCEEDED run after a follow-up, continuing the same conversation with its history', async () => {
    const { ctx, team } = fx;
    const runner = new ScriptedRunner(async (rc) => {
      const text = rc.input.kind === 'initial' ? `did: ${rc.input.prompt}` : `did: ${rc.input.messages.join(' + ')}`;
      await rc.conversation.append('assistant', [{ type: 'text', text }]);
      await rc.usage.add({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
      return { state: 'SUCCEEDED' };
    });
    start({ runner });
    const run = await createRun(ctx, team, { prompt: 'task one' });
    ctx.notifyRunQueued();
    const first = await waitForState(ctx, run, ['SUCCEEDED']);

    const followup = await acceptFollowup(ctx, team, run.id, 'task two');
    expect(followup).toMatchObject({ ok: true, requeued: true, run: { state: 'QUEUED', completed_at: null } });
    await waitFor(async () => runner.calls.length === 2);
    const resumed = await waitForState(ctx, run, ['SUCCEEDED']);

    expect(runner.calls[1]!.input).toEqual({ kind: 'resume', messages: ['task two'] });
    expect(runner.calls[1]!.history.map((turn) => turn.messages.map((m) => m.content))).toEqual([
      [[{ type: 'text', text: 'task one' }], [{ type: 'text', text: 'did: task one' }]],
    ]);
    expect(runner.calls[1]!.workDir).toBe(runner.calls[0]!.workDir);
    expect(resumed.started_at).toBe(first.started_at);
    expect(JSON.parse(resumed.usage!)).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(await stateNames(ctx, run)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED', 'QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    const conversation = await readConversation(ctx, team, run.id);
    expect(conversation!.steps.map((s) => s.messages.map((m) => (m.content[0] as { text: string }).text))).toEqual([
      ['task one', 'did: task one'],
      ['task two', 'did: task two'],
    ]);
  });

  it('cancel of an INPROGRESS run aborts the runner at once', async () => {
    const { ctx, team } = fx;
    let abortedWith: string | undefined;
    const runner = new ScriptedRunner(async (rc) => {
      try {
        return await untilAborted(rc.signal);
      } finally {
        abortedWith = abortKindOf(rc.signal);
      }
    });
    // No heartbeat comes during the test: only the cancel's own notice can abort the runner.
    const e = start({ runner, heartbeatIntervalMs: NO_HEARTBEAT_MS });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    await waitFor(async () => runner.calls.length === 1);
    expect(await requestCancel(ctx, team, run.id)).toMatchObject({ ok: true, run: { state: 'CANCELLED' } });
    await waitFor(async () => e.inFlight().length === 0);
    expect(abortedWith).toBe('cancelled');
    expect((await getRun(ctx, run)).state).toBe('CANCELLED');
    expect(await requestCancel(ctx, team, run.id)).toMatchObject({ ok: false, reason: 'not_cancellable', run: { state: 'CANCELLED' } });
  });

  it('a cancel made by another process is noticed at the next heartbeat', async () => {
    const { ctx, team } = fx;
    let abortedWith: string | undefined;
    const runner = new ScriptedRunner(async (rc) => {
      try {
        return await untilAborted(rc.signal);
      } finally {
        abortedWith = abortKindOf(rc.signal);
      }
    });
    const e = start({ runner, heartbeatIntervalMs: 50 });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    await waitFor(async () => runner.calls.length === 1);
    await ctx.db.updateTable('runs').set({ state: 'CANCELLED', lease_owner: null, lease_expires_at: null }).where('id', '=', run.id).execute();
    await waitFor(async () => e.inFlight().length === 0);
    expect(abortedWith).toBe('cancelled');
    expect((await getRun(ctx, run)).state).toBe('CANCELLED');
  });

  it('heartbeats extend the lease while the runner works', async () => {
    const { ctx, team } = fx;
    const runner = new ScriptedRunner((rc) => untilAborted(rc.signal));
    start({ runner, heartbeatIntervalMs: 30 });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const first = await waitForState(ctx, run, ['INPROGRESS']);
    const extended = await waitFor(async () => {
      const now = await getRun(ctx, run);
      return now.lease_expires_at! > first.lease_expires_at! ? now : undefined;
    });
    expect(extended.state).toBe('INPROGRESS');
    await requestCancel(ctx, team, run.id);
  });

  it('a runner that throws leaves the run in ERROR with a generic retryable message', async () => {
    const { ctx, team } = fx;
    start({
      runner: new ScriptedRunner(async () => {
        throw new Error('secret internal detail');
      }),
    });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['ERROR']);
    expect(JSON.parse(done.status_message!)).toEqual(RUNNER_CRASHED);
    expect(RUNNER_CRASHED.retryable).toBe(true);
    expect(done.status_message).not.toContain('secret internal detail');
  });

  it('a FAILED outcome is recorded with its status message', async () => {
    const { ctx, team } = fx;
    const statusMessage = { message: 'model refused', error_code: 'model_error', retryable: false };
    start({ runner: new ScriptedRunner(async () => ({ state: 'FAILED', statusMessage })) });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['FAILED']);
    expect(JSON.parse(done.status_message!)).toEqual(statusMessage);
    expect(done.completed_at).not.toBeNull();
  });

  it('an environment step that fails with a status message FAILS the run without calling the runner', async () => {
    const { ctx, team } = fx;
    const runner = new ScriptedRunner(async () => ({ state: 'SUCCEEDED' }));
    const statusMessage = { message: 'setup command `make` exited with status 2', error_code: 'environment_setup_failed', retryable: false };
    start({
      runner,
      prepareEnvironment: async () => {
        throw Object.assign(new Error('setup failed'), { statusMessage });
      },
    });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['FAILED']);
    expect(JSON.parse(done.status_message!)).toEqual(statusMessage);
    expect(runner.calls).toHaveLength(0);
  });

  it('the default environment step FAILS a run whose cloud environment no longer exists (environment_setup_failed)', async () => {
    const { ctx, team } = fx;
    const runner = new ScriptedRunner(async () => ({ state: 'SUCCEEDED' }));
    start({ runner });
    const run = await createRun(ctx, team, { resolved_config: JSON.stringify({ environment_id: 'env_deletedaaaaaaaaaaaaaaaaaaaa' }) });
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['FAILED']);
    expect(JSON.parse(done.status_message!)).toMatchObject({ error_code: 'environment_setup_failed', retryable: false });
    expect(runner.calls).toHaveLength(0);
  });

  it('writes attachments into the per-run working directory and passes the environment', async () => {
    const { ctx, team } = fx;
    let seen: { files: string[]; notes: string; env: Record<string, string>; workDir: string } | undefined;
    const runner = new ScriptedRunner(async (rc) => {
      seen = { files: fs.readdirSync(rc.workDir).sort(), notes: fs.readFileSync(path.join(rc.workDir, 'notes.txt'), 'utf8'), env: rc.env, workDir: rc.workDir };
      expect(rc.attachments.map((a) => a.fileName)).toEqual(['event-payload.json', 'notes.txt']);
      return { state: 'SUCCEEDED' };
    });
    start({ runner, prepareEnvironment: async () => ({ env: { FROM_ENVIRONMENT: 'yes' } }) });
    const run = await createRun(ctx, team, {
      attachments: [
        { file_name: 'event-payload.json', mime_type: 'application/json', data: Buffer.from('{"a":1}') },
        { file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('remember this') },
      ],
    });
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['SUCCEEDED']);
    expect(seen).toEqual({
      files: ['event-payload.json', 'notes.txt'],
      notes: 'remember this',
      env: { FROM_ENVIRONMENT: 'yes' },
      workDir: path.join(ctx.settings.dataDir, 'runs', run.id),
    });
  });

  it('stop() lets a run that finishes within the grace period complete', async () => {
    const { ctx, team } = fx;
    const e = start({ runner: new EchoRunner(150), shutdownGraceMs: 3000 });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['INPROGRESS']);
    await e.stop();
    expect((await getRun(ctx, run)).state).toBe('SUCCEEDED');
  });

  it('stop() aborts runs still working after the grace period and releases their claims (back to QUEUED, lease cleared)', async () => {
    const { ctx, team } = fx;
    let abortedWith: string | undefined;
    const runner = new ScriptedRunner(async (rc) => {
      try {
        return await untilAborted(rc.signal);
      } finally {
        abortedWith = abortKindOf(rc.signal);
      }
    });
    const e = start({ runner, shutdownGraceMs: 50 });
    const runs = [await createRun(ctx, team), await createRun(ctx, team), await createRun(ctx, team)];
    ctx.notifyRunQueued();
    await waitFor(async () => runner.calls.length === 2);
    await e.stop();
    expect(abortedWith).toBe('shutdown');
    const after = await Promise.all(runs.map((r) => getRun(ctx, r)));
    expect(after.map((r) => [r.state, r.lease_owner, r.lease_expires_at, r.claim_count])).toEqual([
      ['QUEUED', null, null, 0],
      ['QUEUED', null, null, 0],
      ['QUEUED', null, null, 0],
    ]);
    // the next process picks them up
    engine = startEngine(ctx, { pollIntervalMs: 20, sweeper: false, runner: new EchoRunner(1) });
    for (const r of runs) await waitForState(ctx, r, ['SUCCEEDED']);
  });

  it('a stopped engine claims nothing', async () => {
    const { ctx, team } = fx;
    const e = start();
    await e.stop();
    const run = await createRun(ctx, team);
    e.notifyRunQueued();
    // A running dispatch loop would claim the run before it next idles; a stopped one has ended.
    await e.idle();
    expect(await getRun(ctx, run)).toMatchObject({ state: 'QUEUED', claim_count: 0 });
  });
});
