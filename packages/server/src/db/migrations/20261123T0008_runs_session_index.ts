/**
 * The run page of a session link (`GET /sessions/{sessionId}`, http/session-page.ts) finds its run by
 * session id with no API key: without this index every such request, from anyone, would scan the runs table.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('runs_session_idx').on('runs').column('session_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_session_idx').execute();
}
