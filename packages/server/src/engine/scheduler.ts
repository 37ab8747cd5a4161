/**
 * The firing loop of scheduled agents, in every process with the `worker` role (docs/decisions.md
 * §Schedules): it fires each due slot through schedules/firing.ts, whose claim makes a slot fire once
 * however many processes run this loop.
 *
 * It knows the nearest slot of any schedule and looks at the database only when the clock reaches it, when
 * this process changed a schedule (`wake`), or every SCHEDULER_REFRESH_SECONDS (schedules other processes
 * created or changed); in between, a tick (every SCHEDULER_INTERVAL_SECONDS) compares two numbers. Both
 * reads are range reads of the next-slot index, never a scan of every schedule.
 */
import { toTimestamp } from '../clock';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job';
import { fireSlot, type FiringDeps } from '../schedules/firing';
import { findDueSlotsServiceWide, findNearestSlotServiceWide } from '../schedules/repository';

/** Due slots read at once; a pass reads again while whole batches come back and it claims some. */
const DUE_BATCH = 100;

export interface FiringReport {
  runs: string[];
  skipped: number;
  spawnFailed: number;
  /** Slots another process claimed first (or whose schedule changed meanwhile). */
  notClaimed: number;
  errors: number;
}

/** One pass: fires every slot due now, oldest first. Failures are logged; their slots stay due for the next pass. */
export async function fireDueSchedules(deps: FiringDeps): Promise<FiringReport> {
  const report: FiringReport = { runs: [], skipped: 0, spawnFailed: 0, notClaimed: 0, errors: 0 };
  for (;;) {
    const due = await findDueSlotsServiceWide(deps.db, toTimestamp(deps.clock.now()), DUE_BATCH);
    let claimed = 0;
    for (const slot of due) {
      try {
        const result = await fireSlot(deps, slot);
        if (result.outcome !== 'not_claimed') claimed++;
        if (result.outcome === 'run_created') report.runs.push(result.runId);
        else if (result.outcome === 'skipped_overlap') report.skipped++;
        else if (result.outcome === 'spawn_failed') report.spawnFailed++;
        else report.notClaimed++;
      } catch (err) {
        report.errors++;
        deps.log.error({ err, schedule_id: slot.id, slot: slot.next_run_at }, 'scheduled agent firing failed; the slot stays due');
      }
    }
    // A full batch may hide more due slots; a batch this process claimed none of (all failed, or all taken by
    // another process) is not read again in this pass, so a failing slot cannot spin the loop.
    if (due.length < DUE_BATCH || claimed === 0) return report;
  }
}

export interface Scheduler {
  /** A schedule of this process changed (created, updated, resumed): look at the database at the next tick. */
  wake(): void;
  stop(): Promise<void>;
}

/** The loop's state between ticks: what it knows of the nearest slot. `startScheduler` ticks it; benches tick it by hand. */
export class SchedulerLoop {
  #stale = true;
  /** Clock time (ms) at which the loop next reads the database, unless woken first. */
  #nextLookAt = 0;

  constructor(private readonly deps: FiringDeps) {}

  wake(): void {
    this.#stale = true;
  }

  /**
   * One tick: nothing but a comparison unless the clock reached the nearest slot known, the loop was woken,
   * or the refresh interval passed; then a pass, and the nearest slot read again. Answers the pass's report.
   */
  async tick(): Promise<FiringReport | undefined> {
    const now = this.deps.clock.now().getTime();
    if (!this.#stale && now < this.#nextLookAt) return undefined;
    this.#stale = false;
    try {
      const report = await fireDueSchedules(this.deps);
      const nearest = await findNearestSlotServiceWide(this.deps.db);
      const refreshAt = now + this.deps.settings.windows.schedulerRefreshSeconds * 1000;
      this.#nextLookAt = Math.min(nearest === undefined ? Infinity : Date.parse(nearest), refreshAt);
      return report;
    } catch (err) {
      this.#stale = true;
      throw err;
    }
  }
}

export function startScheduler(deps: FiringDeps): Scheduler {
  const loop = new SchedulerLoop(deps);
  const job: PeriodicJob = startPeriodicJob({
    intervalSeconds: deps.settings.windows.schedulerIntervalSeconds,
    runAtStart: true,
    log: deps.log,
    failure: 'scheduled agent pass failed',
    run: async () => void (await loop.tick()),
  });
  return { wake: () => loop.wake(), stop: () => job.stop() };
}
