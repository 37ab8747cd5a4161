/**
 * Indexes for the filters of GET /agent/runs (found by `pnpm bench:runs` with 100,000 runs).
 *
 * Without them a filtered listing walks `runs_team_updated_idx` (team, updated_at, id) in sort order and
 * tests every row until it has a page: `state=FAILED&name=deploy` (0.8 % of the runs) read ~2,500 rows
 * and evaluated the JSON `name` of each (~24 ms of SQL on SQLite); a combination with few or no matches
 * read the whole team (~1 s). These keep the sort order after an equality prefix, so the page is read
 * straight off the index and only rows of that state, or of that agent name, are visited:
 * - (team_id, state, updated_at, id): `state=…` filters (one state; the dashboard's "failed runs");
 * - (team_id, <resolved_config.name>, updated_at, id): `name=…` filters, on the same expression the list
 *   query uses (dialect.ts jsonTextField: json_extract on SQLite, ->> on PostgreSQL), so both planners
 *   match it.
 * Both follow the default sort (updated_at desc); created_at sorts keep using runs_team_created_idx.
 */
import type { Kysely } from 'kysely';
import { dialectOfDb, jsonTextField } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('runs_team_state_updated_idx').on('runs').columns(['team_id', 'state', 'updated_at', 'id']).execute();
  await db.schema
    .createIndex('runs_team_name_updated_idx')
    .on('runs')
    .column('team_id')
    .expression(jsonTextField(dialectOfDb(db), 'resolved_config', 'name'))
    .columns(['updated_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_name_updated_idx').execute();
  await db.schema.dropIndex('runs_team_state_updated_idx').execute();
}
