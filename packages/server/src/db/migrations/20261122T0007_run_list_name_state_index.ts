/**
 * An index for GET /agent/runs filtered by agent name AND one state — a dashboard's "failed runs of this
 * agent" — found by `pnpm bench:runs` on PostgreSQL.
 *
 * With only (team_id, <name>, updated_at, id) the page is read in sort order off the name index, but every
 * run of that agent is fetched from the table to test its state: `name=deploy&state=FAILED` (793 of
 * 10,000 runs of that agent) visited ~355 rows for a page of 21, and cost PostgreSQL 1.3 ms of CPU per
 * request against 0.75 ms for the unfiltered list. With the state as the next key column, the page is the
 * next 21 index entries. The name index stays for name-only filters (their sort order spans states).
 */
import type { Kysely } from 'kysely';
import { dialectOfDb, jsonTextField } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('runs_team_name_state_updated_idx')
    .on('runs')
    .column('team_id')
    .expression(jsonTextField(dialectOfDb(db), 'resolved_config', 'name'))
    .columns(['state', 'updated_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_name_state_updated_idx').execute();
}
