/**
 * Fair claiming (docs/decisions.md §Fair claiming, runs/fair-claim.ts):
 * - `team_claims`: when each team last had a run claimed, the round-robin's state; the claim also locks
 *   the team's row, which serialises the claims of one team across processes so TEAM_MAX_CONCURRENT_RUNS
 *   holds. A team gets its row at its first claim.
 * - runs (state, team_id, created_at, id): the teams with QUEUED runs (one index step per team) and each
 *   team's oldest QUEUED run, without reading or sorting the whole queue.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_claims')
    .addColumn('team_id', 'text', (c) => c.notNull().primaryKey().references('teams.id').onDelete('cascade'))
    .addColumn('last_claimed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runs_state_team_created_idx').on('runs').columns(['state', 'team_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_state_team_created_idx').execute();
  await db.schema.dropTable('team_claims').execute();
}
