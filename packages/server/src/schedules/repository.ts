/**
 * Scheduled agents' table: every query takes the team id, except the two reads of the firing loop at the
 * end, which act for every team and say so in their names (SERVICE-WIDE). Both are range reads of
 * `schedules_next_run_idx`, never a scan of every schedule.
 */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, SchedulesTable, Timestamp } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';
import { deleteRow } from '../db/team-rows';

type Db = Kysely<Database>;
export type ScheduleRow = Selectable<SchedulesTable>;

/** A JSON text column of a schedule (config, metadata), parsed; undefined when NULL. */
export const parseJsonColumn = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));

export async function insertSchedule(db: Db, row: ScheduleRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('schedules', row).execute();
}

export async function findSchedule(db: Db, teamId: string, id: string): Promise<ScheduleRow | undefined> {
  return teamScope(db, teamId).selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countSchedules(db: Db, teamId: string): Promise<number> {
  const row = await teamScope(db, teamId)
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** By name, then id (the Oz API's order); `after` is the previous page's last row. Fetches limit + 1. */
export async function listScheduleRows(db: Db, teamId: string, page: { limit: number; after?: KeysetAfter | undefined }): Promise<ScheduleRow[]> {
  let q = teamScope(db, teamId).selectFrom('schedules').selectAll();
  if (page.after) q = q.where(sql<boolean>`(name, id) > (${page.after.value}, ${page.after.id})`);
  return q
    .orderBy('name')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

/** A change of the schedule's definition (bumps its version, so a firing that read the old one claims nothing). */
export async function updateScheduleDefinition(db: Db, teamId: string, id: string, changes: Updateable<SchedulesTable>): Promise<ScheduleRow | undefined> {
  return teamScope(db, teamId)
    .updateTable('schedules')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteScheduleRow(db: Db, teamId: string, id: string): Promise<boolean> {
  return deleteRow(db, teamId, 'schedules', id);
}

/** What a firing needs to know about a due slot (read outside its transaction, checked again by the claim). */
export type DueSlot = Pick<ScheduleRow, 'id' | 'team_id' | 'next_run_at' | 'version' | 'cron_schedule' | 'time_zone'> & { next_run_at: Timestamp };

/**
 * The claim (compare-and-set): moves the schedule from the slot `due` saw to `nextRunAt` and records that a
 * firing for it happened, if and only if the schedule is still enabled, still at that slot and still the
 * version `due` read. Of two processes that saw the same slot, exactly one gets the row back; the other gets
 * undefined (on PostgreSQL it waits for the first's commit on the row lock, then finds the slot moved).
 * Call it first in the transaction that starts the run.
 */
export async function claimSlot(tx: Db, due: DueSlot, nextRunAt: Timestamp | null, firedAt: Timestamp): Promise<ScheduleRow | undefined> {
  return teamScope(tx, due.team_id)
    .updateTable('schedules')
    .set({ next_run_at: nextRunAt, last_slot: due.next_run_at, last_fired_at: firedAt })
    .where('id', '=', due.id)
    .where('enabled', '=', 1)
    .where('next_run_at', '=', due.next_run_at)
    .where('version', '=', due.version)
    .returningAll()
    .executeTakeFirst();
}

/** What the claimed firing did (in the claim's transaction). */
export async function recordFiringOutcome(
  tx: Db,
  teamId: string,
  id: string,
  outcome: { kind: 'run_created'; runId: string; at: Timestamp } | { kind: 'skipped_overlap' } | { kind: 'spawn_failed'; error: string },
): Promise<void> {
  const q = teamScope(tx, teamId).updateTable('schedules').where('id', '=', id);
  switch (outcome.kind) {
    case 'run_created':
      await q.set({ last_outcome: 'run_created', last_run_id: outcome.runId, last_ran_at: outcome.at, last_spawn_error: null }).execute();
      return;
    case 'skipped_overlap':
      await q.set((eb) => ({ last_outcome: 'skipped_overlap' as const, skipped_slots: eb('skipped_slots', '+', 1) })).execute();
      return;
    case 'spawn_failed':
      await q.set({ last_outcome: 'spawn_failed', last_spawn_error: outcome.error }).execute();
  }
}

// ---------------------------------------------------------------------------------------------------------
// SERVICE-WIDE reads of the firing loop (engine/scheduler.ts): it fires the slots of every team.

/** SERVICE-WIDE: the slots due at `now` (enabled schedules only: paused ones have no next_run_at), oldest first. */
export async function findDueSlotsServiceWide(db: Db, now: Timestamp, limit: number): Promise<DueSlot[]> {
  const rows = await db
    .selectFrom('schedules')
    .select(['id', 'team_id', 'next_run_at', 'version', 'cron_schedule', 'time_zone'])
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, next_run_at: r.next_run_at!, version: Number(r.version) }));
}

/** SERVICE-WIDE: the nearest slot of any schedule, or undefined when none is enabled. */
export async function findNearestSlotServiceWide(db: Db): Promise<Timestamp | undefined> {
  const row = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.min('next_run_at').as('nearest'))
    .executeTakeFirst();
  return row?.nearest ?? undefined;
}
