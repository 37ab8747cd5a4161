/**
 * Run artifacts (docs/decisions.md §Artifacts): what a run published for clients — files, screenshots and
 * plans with their bytes (stored like run attachments, so they live and go with the run, not with its
 * working directory), and links (pull requests, external references). `position` orders a run's artifacts
 * and is unique per run; (run_id, artifact_type) serves `GET /agent/runs?artifact_type=…`;
 * (team_id, external_url) serves `GET /agent/run-by-external-reference`.
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
  await db.schema.createIndex('run_artifacts_run_type_idx').on('run_artifacts').columns(['run_id', 'artifact_type']).execute();
  await db.schema.createIndex('run_artifacts_team_url_idx').on('run_artifacts').columns(['team_id', 'external_url']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_artifacts').execute();
}
