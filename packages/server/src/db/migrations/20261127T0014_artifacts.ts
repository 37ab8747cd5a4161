/**
 * Run artifacts (docs/decisions.md §Artifacts): what a run published for clients — files, screenshots and
 * plans with their bytes (stored like run attachments, so they live and go with the run, not with its
 * working directory), and links (pull requests, external references). `position` orders a run's artifacts
 * and is unique per run (its index also serves a run's artifacts); (artifact_type, team_id, run_id) serves
 * `GET /agent/runs?artifact_type=…`; (external_url, team_id) serves `GET /agent/run-by-external-reference`.
 */
import type { Kysely } from 'kysely';
import { binaryType, dialectOfDb } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_artifacts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('artifact_type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('content', binaryType(dialectOfDb(db)))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('source_path', 'text')
    .addColumn('content_sha256', 'text')
    .addColumn('external_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('run_artifacts_run_position_uq', ['run_id', 'position'])
    .execute();
  // team_id second, never first: a query about one run (`team_id = ? AND run_id = …`) must not be drawn to
  // these, which would read every artifact of the team (SQLite picked the team prefix for the runs page's
  // has_artifacts probe).
  await db.schema.createIndex('run_artifacts_type_team_idx').on('run_artifacts').columns(['artifact_type', 'team_id', 'run_id']).execute();
  await db.schema.createIndex('run_artifacts_url_team_idx').on('run_artifacts').columns(['external_url', 'team_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_artifacts').execute();
}
