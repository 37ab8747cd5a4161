/**
 * The run engine of one server process: the worker pool, the lease sweeper and the scheduled agents' firing loop.
 *
 *   const engine = startEngine(ctx);        // ctx.notifyRunQueued should call engine.notifyRunQueued()
 *   …
 *   await engine.stop();                     // SIGTERM: stop claiming, finish or release in-flight runs
 */
import type { ServerContext } from '../context';
import type { Runner } from './runner';
import { createRunner } from './runners';
import { startScheduler } from './scheduler';
import { startSweeper } from './sweeper';
import { startWorkDirRetention } from './workdir-retention';
import { startWorkerPool, type WorkerOptions } from './worker';

export interface Engine {
  readonly workerId: string;
  /** Wakes an idle worker at once (a run was queued in this process; other processes' runs wake it through ctx.runSignals). */
  notifyRunQueued(): void;
  /** A schedule changed in this process: the firing loop looks at the database at its next tick. */
  notifyScheduleChanged(): void;
  stop(): Promise<void>;
  /** Ids of the runs executing in this process. */
  inFlight(): string[];
  /** The worker pool's idle(): settles once nothing notified before is left unclaimed by this engine. */
  idle(): Promise<void>;
}

export interface EngineOptions extends Partial<WorkerOptions> {
  /** Default true; tests drive sweepExpiredLeases() themselves with a ManualClock. */
  sweeper?: boolean;
  /** Default true; tests call pruneRunWorkDirs() themselves. */
  workDirRetention?: boolean;
  /** Default true; tests drive fireDueSchedules() themselves with a ManualClock. */
  scheduler?: boolean;
}

export function startEngine(ctx: ServerContext, options: EngineOptions = {}): Engine {
  const runner: Runner = options.runner ?? createRunner(ctx.settings);
  if (runner.name === 'echo' && ctx.settings.workerConcurrency > 0) {
    ctx.log.warn('RUNNER=echo: runs only echo their prompt (development runner); set AGENT_COMMAND or MODEL_BASE_URL for real work');
  }
  const pool = startWorkerPool(ctx, { ...options, runner });
  // Runs queued by other processes wake the idle workers too (their notices: runs/signals.ts).
  const stopWaking = ctx.runSignals.onRunQueuedElsewhere(pool.notifyRunQueued);
  const sweeper = options.sweeper === false ? undefined : startSweeper(ctx, ctx.settings.windows.sweepIntervalSeconds);
  const workDirRetention = options.workDirRetention === false ? undefined : startWorkDirRetention(ctx);
  const scheduler = options.scheduler === false ? undefined : startScheduler(ctx);
  return {
    workerId: pool.workerId,
    notifyRunQueued: pool.notifyRunQueued,
    inFlight: pool.inFlight,
    idle: pool.idle,
    notifyScheduleChanged: () => scheduler?.wake(),
    async stop() {
      stopWaking();
      await scheduler?.stop();
      await sweeper?.stop();
      await workDirRetention?.stop();
      await pool.stop();
    },
  };
}

export { sweepExpiredLeases, sweepUnansweredRuns } from './sweeper';
export { fireDueSchedules } from './scheduler';
export { pruneRunWorkDirs } from './workdir-retention';
