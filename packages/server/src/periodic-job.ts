/**
 * A background job run every `intervalSeconds` (the sweeper, the retention jobs). A tick that comes while
 * the previous run is still going is skipped, so slow runs never pile up; a failed run is logged and the
 * job tries again at the next tick. `stop()` ends the ticks and waits for a run in progress, so the
 * database is never closed under it.
 */
import type { Logger } from 'pino';
import type { Settings } from './settings';

export interface PeriodicJob {
  stop(): Promise<void>;
}

export function startPeriodicJob(options: {
  intervalSeconds: number;
  /** Run once at start too, not only after the first interval. */
  runAtStart: boolean;
  log: Logger;
  /** The log message of a failed run. */
  failure: string;
  run: () => Promise<void>;
}): PeriodicJob {
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (inFlight || stopped) return;
    inFlight = options
      .run()
      .catch((err: unknown) => options.log.error({ err }, options.failure))
      .finally(() => {
        inFlight = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalSeconds * 1000);
  timer.unref();
  if (options.runAtStart) tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

/**
 * A retention job: `prune` at start and every RETENTION_INTERVAL_SECONDS until stopped. What it removed
 * (counts by name) is logged as `<what> retention` when anything was.
 */
export function startRetentionJob(
  ctx: { settings: Pick<Settings, 'windows'>; log: Logger },
  what: string,
  prune: () => Promise<Record<string, number>>,
): PeriodicJob {
  return startPeriodicJob({
    intervalSeconds: ctx.settings.windows.retentionIntervalSeconds,
    runAtStart: true,
    log: ctx.log,
    failure: `${what} retention failed`,
    run: async () => {
      const removed = await prune();
      if (Object.values(removed).some((count) => count > 0)) ctx.log.info(removed, `${what} retention`);
    },
  });
}
