/**
 * Runs by session id: the dashboard's page at a run's session link (`/sessions/{sessionId}`) finds its run
 * with `GET /agent/runs?session_id=…` (first written for a server-rendered page that looked runs up with no
 * API key, where a scan would have been open to anyone).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('runs_session_idx').on('runs').column('session_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_session_idx').execute();
}
