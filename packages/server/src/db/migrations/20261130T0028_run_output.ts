/**
 * A run's stored output (docs/decisions.md §Streamed conversations and the per-run output bound):
 * - `runs.output_bytes`: what the run's executions have appended to its conversation so far, counted in the
 *   transaction that appends it, so that RUN_OUTPUT_LIMIT_MB holds across executions and processes;
 * - `run_events.step_id`: the turn a `content` event belongs to (null for `state` events), with an index, so
 *   GET …/conversation reads one turn's messages page by page instead of the whole log at once. Existing
 *   content events get theirs from their data.
 */
import { sql, type Kysely } from 'kysely';
import { dialectOfDb, jsonTextField } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('runs')
    .addColumn('output_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('run_events').addColumn('step_id', 'text').execute();
  await db
    .updateTable('run_events')
    .set({ step_id: jsonTextField(dialectOfDb(db), 'data', 'step_id') })
    .where('kind', '=', sql.lit('content'))
    .execute();
  await db.schema.createIndex('run_events_step_idx').on('run_events').columns(['run_id', 'step_id', 'seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('run_events_step_idx').execute();
  await db.schema.alterTable('run_events').dropColumn('step_id').execute();
  await db.schema.alterTable('runs').dropColumn('output_bytes').execute();
}
