/** Factories table access. Every query is scoped to the caller's team. */
import type { Kysely, Selectable } from 'kysely';
import { newestFirstPage } from '../db/keyset';
import type { Database, FactoriesTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';

export type FactoryRow = Selectable<FactoriesTable>;

export async function insertFactory(db: Kysely<Database>, row: FactoryRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('factories', row).execute();
}

export async function findFactory(db: Kysely<Database>, teamId: string, factoryId: string): Promise<FactoryRow | undefined> {
  return teamScope(db, teamId).selectFrom('factories').selectAll().where('id', '=', factoryId).executeTakeFirst();
}

/** Newest first, after `page.after` (the previous page's last row). Fetches limit + 1. */
export async function listFactoryRows(db: Kysely<Database>, teamId: string, page: { limit: number; after?: KeysetAfter | undefined }): Promise<FactoryRow[]> {
  return newestFirstPage(teamScope(db, teamId).selectFrom('factories').selectAll(), 'created_at', page).execute();
}

/**
 * Touches the factory row inside a transaction, which takes its row lock on PostgreSQL (SQLite serialises
 * writers anyway): concurrent webhook creates in one factory then count and insert one after the other,
 * so the per-factory limit holds under races. Returns false when the factory is not the team's.
 */
export async function lockFactory(db: Kysely<Database>, teamId: string, factoryId: string, now: string): Promise<boolean> {
  const result = await teamScope(db, teamId).updateTable('factories').set({ updated_at: now }).where('id', '=', factoryId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
