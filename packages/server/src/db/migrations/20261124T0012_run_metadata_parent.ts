/**
 * Oz parity (docs/decisions.md §Oz parity): a run's custom `metadata` (JSON text of string → string,
 * fixed at creation) and the `parent_run_id` of a run spawned by another. The (team_id, parent_run_id)
 * index serves `GET /agent/runs?ancestor_run_id=…`, which walks a run's descendants level by level.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('metadata', 'text').execute();
  await db.schema.alterTable('runs').addColumn('parent_run_id', 'text').execute();
  await db.schema.createIndex('runs_team_parent_idx').on('runs').columns(['team_id', 'parent_run_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_parent_idx').execute();
  await db.schema.alterTable('runs').dropColumn('parent_run_id').execute();
  await db.schema.alterTable('runs').dropColumn('metadata').execute();
}
