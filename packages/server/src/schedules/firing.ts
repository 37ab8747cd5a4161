/**
 * One firing of a scheduled agent: the slot a due schedule stands at starts at most one run, whatever the
 * number of worker processes (docs/decisions.md §Schedules). In ONE transaction:
 *
 *   claim (compare-and-set of next_run_at and version: the loser of a race claims nothing)
 *     → overlap: the run the schedule started last is not finished → skip the slot
 *     → configuration resolved as a run's → no longer resolves → no run, last_spawn_error
 *     → insert the QUEUED run (source SCHEDULED_AGENT, `schedule` set) → record the outcome
 *
 * The next slot is the first one after NOW, not after the claimed slot: slots missed while no worker ran
 * start one run together (contract: the Schedules tag).
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { InvalidConfigError } from '../engine/runners/model-config';
import type { components } from '@agent-runs/contract';
import { resolveAgentConfig, type AgentConfigInput } from '../runs/config';
import { findRunState } from '../runs/repository';
import { announceNewRuns, insertQueuedRun, TITLE_MAX_LENGTH, type RunCreator } from '../runs/service';
import { isBusyState } from '../runs/states';
import { nextSlotAfter } from './cron';
import { claimSlot, parseJsonColumn, recordFiringOutcome, type DueSlot } from './repository';

export type FiringDeps = Pick<ServerContext, 'db' | 'clock' | 'settings' | 'log' | 'runSignals' | 'notificationOutbox' | 'notifyRunQueued'>;

export type FiringOutcome =
  | { outcome: 'run_created'; runId: string }
  | { outcome: 'skipped_overlap' | 'spawn_failed' }
  /** Another process claimed the slot first, or the schedule changed (paused, updated, deleted) since it was read. */
  | { outcome: 'not_claimed' };

export async function fireSlot(deps: FiringDeps, due: DueSlot): Promise<FiringOutcome> {
  const now = deps.clock.now();
  const next = nextSlotAfter(due.cron_schedule, due.time_zone, now);
  const result = await deps.db.transaction().execute(async (tx): Promise<FiringOutcome> => {
    const schedule = await claimSlot(tx, due, next ? toTimestamp(next) : null, toTimestamp(now));
    if (!schedule) return { outcome: 'not_claimed' };
    const teamId = schedule.team_id;

    const previous = schedule.last_run_id ? await findRunState(tx, teamId, schedule.last_run_id) : undefined;
    if (previous && isBusyState(previous)) {
      await recordFiringOutcome(tx, teamId, schedule.id, { kind: 'skipped_overlap' });
      return { outcome: 'skipped_overlap' };
    }

    const requested = parseJsonColumn<AgentConfigInput>(schedule.config);
    let resolved;
    try {
      resolved = await resolveAgentConfig({ db: tx, settings: deps.settings }, teamId, requested);
    } catch (err) {
      if (!(err instanceof InvalidConfigError)) throw err;
      deps.log.warn(
        { schedule_id: schedule.id, team_id: teamId, problem: err.message },
        'scheduled agent started no run: its configuration no longer resolves',
      );
      await recordFiringOutcome(tx, teamId, schedule.id, { kind: 'spawn_failed', error: err.message });
      return { outcome: 'spawn_failed' };
    }

    const metadata = parseJsonColumn<components['schemas']['RunMetadata']>(schedule.metadata);
    const run = await insertQueuedRun(tx, deps, {
      teamId,
      title: [...schedule.name].slice(0, TITLE_MAX_LENGTH).join(''),
      prompt: schedule.prompt,
      source: 'SCHEDULED_AGENT',
      creator: JSON.parse(schedule.created_by) as RunCreator,
      requestedConfig: requested,
      resolvedConfig: resolved,
      ...(metadata ? { metadata } : {}),
      schedule: {
        schedule_id: schedule.id,
        schedule_name: schedule.name,
        cron_schedule: schedule.cron_schedule,
        time_zone: schedule.time_zone,
        scheduled_for: due.next_run_at,
      },
      attachments: [],
    });
    await recordFiringOutcome(tx, teamId, schedule.id, { kind: 'run_created', runId: run.run_id, at: toTimestamp(now) });
    return { outcome: 'run_created', runId: run.run_id };
  });
  if (result.outcome === 'run_created') announceNewRuns(deps, due.team_id, [result.runId]);
  return result;
}
