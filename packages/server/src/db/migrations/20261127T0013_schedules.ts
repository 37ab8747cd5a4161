/**
 * Scheduled agents (tables.ts: SchedulesTable; docs/decisions.md §Schedules) and the schedule a run was
 * started by.
 * - `schedules_next_run_idx` (next_run_at): the firing loop's only service-wide reads — the due slots
 *   (`next_run_at <= now`, oldest first) and the nearest one — are range reads of it, never a scan of every
 *   schedule; paused schedules have no next_run_at and are not in its range.
 * - `schedules_team_name_idx` (team_id, name, id): the list, sorted by name as the Oz API sorts it.
 * - runs `schedule_id` (filter `GET /agent/runs?schedule_id=`, kept after the schedule is deleted) and
 *   `schedule` (JSON ScheduleInfo as it was when the run started), with (team_id, schedule_id, updated_at, id)
 *   so a schedule's runs page in the default order straight off the index (as 20261121T0006 does for state).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cron_schedule', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('config', 'text')
    .addColumn('metadata', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('next_run_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_ran_at', 'text')
    .addColumn('last_run_id', 'text')
    .addColumn('last_slot', 'text')
    .addColumn('last_fired_at', 'text')
    .addColumn('last_outcome', 'text')
    .addColumn('last_spawn_error', 'text')
    .addColumn('skipped_slots', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('schedules_next_run_idx').on('schedules').column('next_run_at').execute();
  await db.schema.createIndex('schedules_team_name_idx').on('schedules').columns(['team_id', 'name', 'id']).execute();

  await db.schema.alterTable('runs').addColumn('schedule_id', 'text').execute();
  await db.schema.alterTable('runs').addColumn('schedule', 'text').execute();
  await db.schema.createIndex('runs_team_schedule_updated_idx').on('runs').columns(['team_id', 'schedule_id', 'updated_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_schedule_updated_idx').execute();
  await db.schema.alterTable('runs').dropColumn('schedule').execute();
  await db.schema.alterTable('runs').dropColumn('schedule_id').execute();
  await db.schema.dropTable('schedules').execute();
}
