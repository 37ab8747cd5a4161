/**
 * The run worker pool of one server process, as a chain of small typed steps per run:
 *
 *   claim → prepare (CLAIMED → INPROGRESS, plan input/history, working dir + attachments, environment)
 *         → execute (runner + heartbeats)
 *         → handle success / handle failure (finish under the lease, or release on shutdown)
 *
 * Every write a worker makes after the claim is guarded by `lease_owner = this worker`, so a worker that
 * lost its lease (cancelled, swept after a stall) can never overwrite what another did.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createArtifactPublisher } from '../artifacts/service';
import { createUsageRecorder } from '../budgets/recorder';
import type { ServerContext } from '../context';
import { createConversationWriter, createFollowupInbox } from '../runs/conversation';
import { claimNextRun, extendLease, finishExecution, leaseExpiry, planExecution, releaseClaim, startExecution } from '../runs/executions';
import { findRun, listAttachments, RunNotOwnedError, type RunRow } from '../runs/repository';
import { abortKindOf, RunAbortedError } from '../runs/signals';
import { deliverRepositoryChanges } from './repositories';
import { prepareRunEnvironment, type PrepareRunEnvironment } from './run-environment';
import { harnessAuthKeys } from './gateway/team-keys';
import type { ExecutionGateway } from './gateway/gateway';
import type { ConversationWriter, ResolvedAgentConfig, RunStatusMessage } from '../runs/contract';
import type { RunAttachment, RunContext, Runner, RunOutcome } from './runner';
import type { UsageRecorder } from '../budgets/usage-recorder';
import type { RunSandbox } from './sandbox';
import { runWorkDirRoot } from './workdir-retention';
import { ensurePrivateDir } from '../private-files';
import { Wakeup } from '../wakeup';
import { annotateActiveSpan, inSpan, traceFields, traceRunExecution } from '../telemetry/spans';

export interface WorkerOptions {
  /** The runner every run uses (default: createRunner(settings) in index.ts). */
  runner: Runner;
  /** Unique per process; default `<host>:<pid>:<random>`. */
  workerId?: string;
  /** Idle poll for runs queued by another process (default 1000 ms). notifyRunQueued wakes at once. */
  pollIntervalMs?: number;
  /** Default settings.windows.heartbeatSeconds. */
  heartbeatIntervalMs?: number;
  /** How long stop() lets in-flight runs finish before aborting and releasing them (default 2000 ms). */
  shutdownGraceMs?: number;
  /** The environment step (default: run-environment.ts). */
  prepareEnvironment?: PrepareRunEnvironment;
}

export interface WorkerPool {
  readonly workerId: string;
  notifyRunQueued(): void;
  /** Stop claiming; let in-flight runs finish within the grace period, abort and release the rest. */
  stop(): Promise<void>;
  /** Runs currently executing in this pool (ids). */
  inFlight(): string[];
  /**
   * Settles when the dispatch loop next finds nothing to claim and no wake pending, or at once when it has
   * ended (after stop()): every run queued and notified before the call has been claimed by then, or never
   * will be by this pool.
   */
  idle(): Promise<void>;
}

/** A failure that carries the run's status message (environment setup, a spent budget): the run FAILS with it. */
interface StatusMessageError {
  statusMessage: RunStatusMessage;
}
const hasStatusMessage = (err: unknown): err is StatusMessageError =>
  typeof err === 'object' && err !== null && typeof (err as { statusMessage?: { message?: unknown } }).statusMessage?.message === 'string';

/** What a runner that throws leaves on the run: ERROR, retryable, no internals. */
export const RUNNER_CRASHED: RunStatusMessage = {
  message: 'the run stopped because of an internal error',
  error_code: 'internal_error',
  retryable: true,
};

const ABORT_WAIT_MS = 5000;

export function defaultWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function startWorkerPool(ctx: ServerContext, options: WorkerOptions): WorkerPool {
  const workerId = options.workerId ?? defaultWorkerId();
  const concurrency = ctx.settings.workerConcurrency;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? ctx.settings.windows.heartbeatSeconds * 1000;
  const shutdownGraceMs = options.shutdownGraceMs ?? 2000;
  const log = ctx.log.child({ component: 'worker', workerId });

  const active = new Map<string, { done: Promise<void>; controller: AbortController; run: RunRow }>();
  let stopping = false;
  // stop() wakes it too, so a loop about to wait sees `stopping` at once.
  const wakeup = new Wakeup();
  const wake = wakeup.wake;
  const waitForWake = (timeoutMs: number) => wakeup.wait(timeoutMs);
  let idleWaiters: Array<() => void> | undefined = [];
  const settleIdle = () => idleWaiters?.splice(0).forEach((settle) => settle());

  async function dispatchLoop(): Promise<void> {
    while (!stopping) {
      if (active.size >= concurrency) {
        await waitForWake(pollIntervalMs);
        continue;
      }
      let run: RunRow | undefined;
      try {
        run = await claimNextRun(ctx, workerId);
      } catch (err) {
        log.error({ err }, 'claim failed');
        await waitForWake(pollIntervalMs);
        continue;
      }
      if (!run) {
        if (!wakeup.pending) settleIdle();
        await waitForWake(pollIntervalMs);
        continue;
      }
      if (stopping) {
        await releaseClaim(ctx, run, workerId).catch((err: unknown) => log.error({ err, runId: run.id }, 'release failed'));
        break;
      }
      const claimed = run;
      const controller = new AbortController();
      const done = traceRunExecution(claimed, () =>
        executeClaimedRun(ctx, claimed, {
          workerId,
          runner: options.runner,
          controller,
          heartbeatIntervalMs,
          prepareEnvironment: options.prepareEnvironment ?? prepareRunEnvironment,
          log,
        }),
      )
        .catch((err: unknown) => log.error({ err, runId: claimed.id }, 'run execution failed unexpectedly'))
        .finally(() => {
          active.delete(claimed.id);
          wake();
        });
      active.set(claimed.id, { done, controller, run: claimed });
    }
  }

  const loop = (concurrency > 0 ? dispatchLoop() : Promise.resolve()).finally(() => {
    settleIdle();
    idleWaiters = undefined;
  });
  if (concurrency > 0) log.info({ concurrency, runner: options.runner.name }, 'run workers started');

  return {
    workerId,
    notifyRunQueued: wake,
    inFlight: () => [...active.keys()],
    idle: () => new Promise<void>((settle) => (idleWaiters ? idleWaiters.push(settle) : settle())),
    async stop() {
      if (stopping) return loop;
      stopping = true;
      wake();
      await loop;
      const settled = () => Promise.all([...active.values()].map((a) => a.done));
      if (active.size > 0 && !(await within(settled(), shutdownGraceMs))) {
        log.info({ runs: [...active.keys()] }, 'aborting in-flight runs for shutdown; their claims are released');
        for (const a of active.values()) a.controller.abort(new RunAbortedError('shutdown'));
        if (!(await within(settled(), ABORT_WAIT_MS))) {
          // A runner that ignores its signal: release its claim anyway; its later writes fail the lease guard.
          for (const a of active.values()) {
            await releaseClaim(ctx, a.run, workerId).catch((err: unknown) => log.error({ err, runId: a.run.id }, 'release failed'));
          }
        }
      }
    },
  };
}

const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });

// ---------------------------------------------------------------------------------------------------
// One run

interface ExecutionDeps {
  workerId: string;
  runner: Runner;
  controller: AbortController;
  heartbeatIntervalMs: number;
  prepareEnvironment: PrepareRunEnvironment;
  log: Logger;
}

type Prepared =
  | { kind: 'ready'; runContext: RunContext; modelGateway: ExecutionGateway }
  | { kind: 'gone' }
  | { kind: 'failed'; statusMessage: RunStatusMessage };

/** Claim is done; run the remaining steps. Never throws for expected outcomes. */
export async function executeClaimedRun(ctx: ServerContext, claimed: RunRow, deps: ExecutionDeps): Promise<void> {
  const { controller, workerId } = deps;
  const log = deps.log.child({ runId: claimed.id, teamId: claimed.team_id, ...traceFields() });
  const unregister = ctx.runSignals.registerInFlight(claimed.id, controller);
  const heartbeat = startHeartbeat(ctx, claimed, workerId, deps.heartbeatIntervalMs, controller, log);
  const sandbox = ctx.sandbox.forRun(claimed.id, runWorkDir(ctx, claimed.id));
  let prepared: Prepared | undefined;
  try {
    prepared = await prepare(ctx, claimed, sandbox, deps, log);
    if (prepared.kind === 'gone') return;
    if (prepared.kind === 'failed') {
      await handleFailure(ctx, claimed, workerId, { state: 'FAILED', statusMessage: prepared.statusMessage }, log);
      return;
    }
    const runContext = prepared.runContext;
    const executed = await inSpan('run agent', { 'run.runner': deps.runner.name }, () => execute(deps.runner, runContext));
    await prepared.runContext.usage.settled?.();
    const result = outputLimitVerdict(budgetVerdict(sandboxVerdict(executed, sandbox), prepared.runContext.usage), prepared.runContext.conversation);
    const aborted = abortKindOf(controller.signal);
    if (aborted === 'shutdown') {
      await releaseForShutdown(ctx, claimed, workerId, log);
    } else if (aborted) {
      log.info({ reason: aborted }, 'run stopped');
    } else if (result.kind === 'outcome') {
      if (result.outcome.state === 'SUCCEEDED') {
        const artifacts = createArtifactPublisher(ctx, claimed, workerId);
        const pushed = await inSpan('run push', {}, () => deliverRepositoryChanges(ctx, claimed, runWorkDir(ctx, claimed.id), sandbox, artifacts, log));
        await handleSuccess(ctx, claimed, workerId, pushed, log);
      } else await handleFailure(ctx, claimed, workerId, result.outcome, log);
    } else if (result.error instanceof RunNotOwnedError) {
      log.info('run was taken from this worker while executing');
    } else if (hasStatusMessage(result.error)) {
      await handleFailure(ctx, claimed, workerId, { state: 'FAILED', statusMessage: result.error.statusMessage }, log);
    } else {
      log.error({ err: result.error }, 'runner threw');
      await handleFailure(ctx, claimed, workerId, { state: 'ERROR', statusMessage: RUNNER_CRASHED }, log);
    }
  } finally {
    // The execution's gateway keys stop working before its processes are gone.
    if (prepared?.kind === 'ready') prepared.modelGateway.close();
    await sandbox.close();
    heartbeat.stop();
    unregister();
  }
}

/**
 * A limit the sandbox enforced or an egress it refused decides the outcome, whatever the runner made of
 * the process it lost (docs/sandbox.md).
 */
function sandboxVerdict(result: ExecutionResult, sandbox: RunSandbox): ExecutionResult {
  const failure = sandbox.failure;
  if (!failure || (result.kind === 'threw' && result.error instanceof RunNotOwnedError)) return result;
  return { kind: 'outcome', outcome: { state: 'FAILED', statusMessage: failure } };
}

/**
 * A budget a recorded model call went past decides the outcome too (docs/decisions.md §Budgets and usage),
 * unless the sandbox's verdict came first.
 */
function budgetVerdict(result: ExecutionResult, usage: UsageRecorder): ExecutionResult {
  const exceeded = usage.exceeded;
  if (
    !exceeded ||
    (result.kind === 'outcome' && result.outcome.state !== 'SUCCEEDED') ||
    (result.kind === 'threw' && result.error instanceof RunNotOwnedError)
  ) {
    return result;
  }
  return { kind: 'outcome', outcome: { state: 'FAILED', statusMessage: exceeded.statusMessage } };
}

/** A run that reached its output bound FAILS with it (runs/output-limit.ts): it could not record its outcome. */
function outputLimitVerdict(result: ExecutionResult, conversation: ConversationWriter): ExecutionResult {
  const exceeded = conversation.exceeded;
  if (!exceeded || (result.kind === 'threw' && result.error instanceof RunNotOwnedError)) return result;
  return { kind: 'outcome', outcome: { state: 'FAILED', statusMessage: exceeded.statusMessage } };
}

/** Step 1: CLAIMED → INPROGRESS, then everything the runner is given. */
async function prepare(ctx: ServerContext, claimed: RunRow, sandbox: RunSandbox, deps: ExecutionDeps, log: Logger): Promise<Prepared> {
  const { workerId, controller } = deps;
  const started = await startExecution(ctx, claimed, workerId, leaseExpiry(ctx, ctx.clock.now()), deps.runner.name);
  if (!started.ok) {
    log.info({ state: started.reason === 'unexpected_state' ? started.run.state : 'missing' }, 'claimed run is no longer ours');
    return { kind: 'gone' };
  }
  const run = started.run;
  try {
    const config = parseConfig(run);
    const usage = createUsageRecorder(ctx, run, config);
    const plan = await planExecution(ctx, run, workerId);
    // A run whose own budget or team's is spent (however it was started) spends nothing more; after the
    // plan, which took its follow-ups, so that failing does not re-queue it for them.
    await usage.assertWithinBudget();
    const attachments = await loadAttachments(ctx, run);
    const workDir = await createWorkDir(ctx, run, attachments, sandbox);
    const { env } = await deps.prepareEnvironment(ctx, run, sandbox, controller.signal);
    const modelGateway = ctx.modelGateway.open({ runId: run.id, usage, teamKeys: await harnessAuthKeys(ctx, run.team_id, config), log });
    const runContext: RunContext = {
      runId: run.id,
      teamId: run.team_id,
      title: run.title,
      source: run.source,
      factoryId: run.factory_id,
      deliveryId: run.delivery_id,
      config,
      input: plan.input,
      history: plan.history,
      attachments,
      workDir,
      env,
      sandbox,
      inbox: createFollowupInbox(ctx, run),
      conversation: createConversationWriter(ctx, run, plan.stepId, workerId, ctx.settings.limits.runOutputBytes),
      usage,
      modelGateway,
      artifacts: createArtifactPublisher(ctx, run, workerId),
      signal: controller.signal,
      log,
    };
    return { kind: 'ready', runContext, modelGateway };
  } catch (err) {
    if (err instanceof RunNotOwnedError || controller.signal.aborted) {
      if (abortKindOf(controller.signal) === 'shutdown') await releaseForShutdown(ctx, run, workerId, log);
      return { kind: 'gone' };
    }
    if (hasStatusMessage(err)) return { kind: 'failed', statusMessage: err.statusMessage };
    throw err;
  }
}

type ExecutionResult = { kind: 'outcome'; outcome: RunOutcome } | { kind: 'threw'; error: unknown };

/** Step 2: the runner. Its exception is a result here, not a crash of the worker. */
async function execute(runner: Runner, runContext: RunContext): Promise<ExecutionResult> {
  if (runContext.signal.aborted) return { kind: 'threw', error: runContext.signal.reason };
  try {
    return { kind: 'outcome', outcome: await runner.run(runContext) };
  } catch (error) {
    return { kind: 'threw', error };
  }
}

/** Step 3a, with what the repositories' delivery says (a push that failed), if anything. */
async function handleSuccess(ctx: ServerContext, run: RunRow, workerId: string, statusMessage: RunStatusMessage | undefined, log: Logger) {
  const finished = await finishExecution(ctx, run, workerId, { state: 'SUCCEEDED', ...(statusMessage ? { statusMessage } : {}) });
  if (finished.ok) annotateActiveSpan({ 'run.state': finished.run.state });
  if (!finished.ok) log.info('run finished after it was taken from this worker; outcome dropped');
  else log.info({ state: finished.run.state, requeued: finished.requeued }, 'run succeeded');
}

/** Step 3b: FAILED or ERROR with its status message, or BLOCKED on a question; never overwrites CANCELLED (lease guard). */
async function handleFailure(
  ctx: ServerContext,
  run: RunRow,
  workerId: string,
  outcome: { state: 'FAILED' | 'ERROR' | 'BLOCKED'; statusMessage: RunStatusMessage },
  log: Logger,
) {
  const finished = await finishExecution(ctx, run, workerId, outcome);
  if (finished.ok) annotateActiveSpan({ 'run.state': finished.run.state });
  if (!finished.ok) log.info('run failed after it was taken from this worker; outcome dropped');
  else
    log.info(
      { state: finished.run.state, statusMessage: outcome.statusMessage, requeued: finished.requeued },
      outcome.state === 'BLOCKED' ? 'run waits for an answer' : 'run did not succeed',
    );
}

async function releaseForShutdown(ctx: ServerContext, run: RunRow, workerId: string, log: Logger) {
  const released = await releaseClaim(ctx, run, workerId);
  if (released.ok) log.info('claim released for shutdown');
}

// ---------------------------------------------------------------------------------------------------
// Heartbeat

/**
 * Extends the lease every interval. When the UPDATE finds the run no longer ours (cancelled through
 * another process, swept after a stall) the runner is aborted.
 */
function startHeartbeat(ctx: ServerContext, run: RunRow, workerId: string, intervalMs: number, controller: AbortController, log: Logger) {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || controller.signal.aborted) return;
    busy = true;
    void heartbeatOnce(ctx, run, workerId, controller)
      .catch((err: unknown) => log.warn({ err }, 'heartbeat failed'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One heartbeat: true while the run is still ours. */
export async function heartbeatOnce(ctx: ServerContext, run: RunRow, workerId: string, controller: AbortController): Promise<boolean> {
  if (await extendLease(ctx, run, workerId, leaseExpiry(ctx, ctx.clock.now()))) return true;
  const current = await findRun(ctx, run.team_id, run.id);
  if (!controller.signal.aborted) controller.abort(new RunAbortedError(current?.state === 'CANCELLED' ? 'cancelled' : 'lease_lost'));
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Working directory

async function loadAttachments(ctx: ServerContext, run: RunRow): Promise<RunAttachment[]> {
  const rows = await listAttachments(ctx.db, run.team_id, run.id);
  return rows.map((r) => ({ fileName: r.file_name, mimeType: r.mime_type, data: r.data }));
}

/** A name that stays inside the working directory. */
export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[\0]/g, '');
  return base === '' || base === '.' || base === '..' ? 'attachment' : base;
}

export const runWorkDir = (ctx: Pick<ServerContext, 'settings'>, runId: string): string => path.join(runWorkDirRoot(ctx), runId);

/** `<dataDir>/runs/<runId>`, kept across executions so a resumed run continues in the same files. */
async function createWorkDir(ctx: ServerContext, run: RunRow, attachments: RunAttachment[], sandbox: RunSandbox): Promise<string> {
  const dir = runWorkDir(ctx, run.id);
  await sandbox.openWorkspace(); // the run's disk, mounted here (docs/sandbox.md)
  ensurePrivateDir(dir);
  const owner = sandbox.workspaceOwner;
  for (const a of attachments) {
    // The workspace is the run's: whatever now stands at the name (a symlink to a host file, say) is
    // replaced, never written through — the server writes here with its own rights.
    const file = path.join(dir, safeFileName(a.fileName));
    await fs.rm(file, { recursive: true, force: true });
    const handle = await fs.open(file, 'wx', 0o600);
    try {
      await handle.writeFile(a.data);
      if (owner) await handle.chown(owner.uid, owner.gid); // the sandbox's host uid reads it
    } finally {
      await handle.close();
    }
  }
  return dir;
}

function parseConfig(run: RunRow): ResolvedAgentConfig {
  const text = run.resolved_config ?? run.config;
  if (!text) return {};
  try {
    return JSON.parse(text) as ResolvedAgentConfig;
  } catch {
    return {};
  }
}
