import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock';
import { startEngine, type Engine } from '../../src/engine';
import { readConversation } from '../../src/runs/conversation-stream';
import { readEvents } from '../../src/runs/events';
import { acceptFollowup, requestCancel } from '../../src/runs/transitions';
import type { ContentBlock } from '../../src/runs/contract';
import { CommandRunner, commandEnvironment } from '../../src/engine/runners/command';
import { createRunner } from '../../src/engine/runners';
import { testDatabases } from '../support/databases';
import { isAlive, processesWithEnv } from '../support/processes';
import { testSandboxMode } from '../support/sandbox';
import { createRun, getRun, useEngineDatabase, waitFor, waitForState, type EngineTestContext } from './helpers';

const processesOfRun = (runId: string) => processesWithEnv('AGENT_RUN_ID', runId);

/** Every block the run's assistant recorded, in order. */
async function assistantBlocks(ctx: EngineTestContext, run: { id: string; team_id: string }): Promise<ContentBlock[]> {
  const conversation = await readConversation(ctx, run.team_id, run.id);
  return conversation!.steps.flatMap((s) => s.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content));
}
const stdoutText = (blocks: ContentBlock[]) => blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
const stderrText = (blocks: ContentBlock[]) =>
  blocks.flatMap((b) => (b.type === 'event' && b.name === 'stderr' ? [(b.data as { text: string }).text] : [])).join('');

describe.each(testDatabases())('command runner (%s)', (kind) => {
  const fx = useEngineDatabase(kind, { clock: () => systemClock, settings: { workerConcurrency: 2 } });
  let engine: Engine | undefined;

  function start(command: string, options: { shutdownGraceMs?: number; heartbeatIntervalMs?: number } = {}): Engine {
    const ctx = fx.ctx;
    engine = startEngine(ctx, { pollIntervalMs: 20, sweeper: false, runner: new CommandRunner(command), ...options });
    ctx.notifyRunQueued = () => engine?.notifyRunQueued();
    return engine;
  }
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('is selected by RUNNER=command with AGENT_COMMAND', () => {
    expect(createRunner({ ...fx.ctx.settings, runner: 'command', agentCommand: 'true' }).name).toBe('command');
    expect(createRunner({ ...fx.ctx.settings, runner: 'echo' }).name).toBe('echo');
    expect(createRunner({ ...fx.ctx.settings, runner: 'model', modelBaseUrl: 'http://127.0.0.1:9/v1' }).name).toBe('model');
  });

  it('gets the prompt on stdin, records stdout as text and stderr as stderr events, and exit 0 succeeds', async () => {
    const { ctx, team } = fx;
    start(`cat; echo; echo out-line; echo err-line >&2; printf 'no newline'`);
    const run = await createRun(ctx, team, { prompt: 'the prompt' });
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['SUCCEEDED']);
    const blocks = await assistantBlocks(ctx, run);
    expect(stdoutText(blocks)).toBe('the prompt\nout-line\nno newline');
    expect(stderrText(blocks)).toBe('err-line\n');
  });

  it('a non-zero exit FAILS the run with the exit status', async () => {
    const { ctx, team } = fx;
    start('echo trying; exit 3');
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const done = await waitForState(ctx, run, ['FAILED']);
    expect(JSON.parse(done.status_message!)).toEqual({ message: 'agent command exited with status 3', error_code: 'agent_command_failed', retryable: false });
    expect(stdoutText(await assistantBlocks(ctx, run))).toBe('trying\n');
  });

  it('runs in its sandboxed workspace with the attachments as files and AGENT_RUN_ID set, without the service credentials', async () => {
    const { ctx, team } = fx;
    process.env.SECRETS_KEY = 'server-secret-in-env';
    start('pwd; cat notes.txt; echo; echo "$AGENT_RUN_ID $AGENT_RUN_INPUT ${SECRETS_KEY:-no-secrets-key}"');
    const run = await createRun(ctx, team, { attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('attached') }] });
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['SUCCEEDED']).finally(() => delete process.env.SECRETS_KEY);
    const workspace = testSandboxMode === 'bwrap' ? '/workspace' : fs.realpathSync(path.join(ctx.settings.dataDir, 'runs', run.id));
    expect(stdoutText(await assistantBlocks(ctx, run))).toBe(`${workspace}\nattached\n${run.id} initial no-secrets-key\n`);
    expect(commandEnvironment({ env: { A: '1' }, runId: 'r', input: { kind: 'initial', prompt: '' } })).toEqual({
      A: '1',
      AGENT_RUN_ID: 'r',
      AGENT_RUN_INPUT: 'initial',
    });
  });

  it('records output while the command is still running', async () => {
    const { ctx, team } = fx;
    start('echo early; sleep 30');
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    await waitFor(async () => stdoutText(await assistantBlocks(ctx, run)) === 'early\n');
    expect((await getRun(ctx, run)).state).toBe('INPROGRESS');
    await requestCancel(ctx, team, run.id);
  });

  it('cancel while running `sleep 30` kills every process of the command at once', async () => {
    const { ctx, team } = fx;
    // No heartbeat comes during the test (an hour), and the sleeps outlast waitFor's bound: only the
    // cancel's own notice can have ended them.
    const e = start('sleep 30 & sleep 31 & wait', { heartbeatIntervalMs: 3_600_000 });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const pids = await waitFor(async () => {
      const found = processesOfRun(run.id);
      return found.length >= 3 ? found : undefined; // the shell and both sleeps
    });

    expect(await requestCancel(ctx, team, run.id)).toMatchObject({ ok: true, run: { state: 'CANCELLED' } });
    await waitFor(async () => pids.every((pid) => !isAlive(pid)) && e.inFlight().length === 0);
    expect(await getRun(ctx, run)).toMatchObject({ state: 'CANCELLED', lease_owner: null });
  });

  it('cancel after the command finished is refused: the run is no longer cancellable', async () => {
    const { ctx, team } = fx;
    start('true');
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['SUCCEEDED']);
    expect(await requestCancel(ctx, team, run.id)).toMatchObject({ ok: false, reason: 'not_cancellable', run: { state: 'SUCCEEDED' } });
  });

  it('a follow-up sent while the command runs makes it run again with the follow-up on stdin, in the same conversation', async () => {
    const { ctx, team } = fx;
    // `waiting` says the command is up, in its mounted workspace: only then does a `go` written here reach it.
    start('touch waiting; while [ ! -f go ]; do sleep 0.02; done; rm go waiting; echo "got: $(cat)"');
    const run = await createRun(ctx, team, { prompt: 'first' });
    ctx.notifyRunQueued();
    const workDir = path.join(ctx.settings.dataDir, 'runs', run.id);
    await waitForState(ctx, run, ['INPROGRESS']);
    expect(await acceptFollowup(ctx, team, run.id, 'second')).toMatchObject({ ok: true, requeued: false });
    await waitFor(async () => fs.existsSync(path.join(workDir, 'waiting')));
    fs.writeFileSync(path.join(workDir, 'go'), '');
    // the first execution finishes, the run is re-queued and the command starts again (waiting for the next go)
    await waitFor(async () => {
      const states = (await readEvents(ctx, team, run.id)).filter((e) => e.kind === 'state').map((e) => e.data.state);
      return (
        states.filter((st) => st === 'INPROGRESS').length === 2 && fs.existsSync(path.join(workDir, 'waiting')) && !fs.existsSync(path.join(workDir, 'go'))
      );
    });
    fs.writeFileSync(path.join(workDir, 'go'), '');
    await waitForState(ctx, run, ['SUCCEEDED']);
    const steps = (await readConversation(ctx, team, run.id))!.steps;
    expect(steps.map((s) => s.messages.map((m) => [m.role, m.content]))).toEqual([
      [
        ['user', [{ type: 'text', text: 'first' }]],
        ['assistant', [{ type: 'text', text: 'got: first\n' }]],
      ],
      [
        ['user', [{ type: 'text', text: 'second' }]],
        ['assistant', [{ type: 'text', text: 'got: second\n' }]],
      ],
    ]);
  });

  it('shutdown kills the command and releases the claim', async () => {
    const { ctx, team } = fx;
    const e = start('sleep 30 & wait', { shutdownGraceMs: 50 });
    const run = await createRun(ctx, team);
    ctx.notifyRunQueued();
    const pids = await waitFor(async () => {
      const found = processesOfRun(run.id);
      return found.length >= 2 ? found : undefined;
    });
    await e.stop();
    await waitFor(async () => pids.every((pid) => !isAlive(pid)));
    expect(await getRun(ctx, run)).toMatchObject({ state: 'QUEUED', lease_owner: null, claim_count: 0 });
  });
});
