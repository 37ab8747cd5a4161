/** environments access: every query is scoped to the caller's team. */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { newestFirstPage } from '../db/keyset';
import type { Database, EnvironmentsTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';

export type EnvironmentRow = Selectable<EnvironmentsTable>;

export async function insertEnvironment(db: Kysely<Database>, row: EnvironmentRow): Promise<void> {
  await db.insertInto('environments').values(row).execute();
}

export async function findEnvironment(db: Kysely<Database>, teamId: string, id: string): Promise<EnvironmentRow | undefined> {
  return db.selectFrom('environments').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
}

/** Several environments of the team by id (those that exist). */
export async function findEnvironments(db: Kysely<Database>, teamId: string, ids: readonly string[]): Promise<EnvironmentRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('environments').selectAll().where('team_id', '=', teamId).where('id', 'in', [...ids]).execute();
}

/** Newest first; `after` is the last row of the previous page. Fetches limit + 1 to tell whether more follow. */
export async function listEnvironmentRows(
  db: Kysely<Database>,
  teamId: string,
  page: { limit: number; after?: KeysetAfter | undefined },
): Promise<EnvironmentRow[]> {
  return newestFirstPage(db.selectFrom('environments').selectAll().where('team_id', '=', teamId), 'created_at', page).execute();
}

/** Returns the updated row, or undefined when no environment of the team has this id. */
export async function updateEnvironmentRow(
  db: Kysely<Database>,
  teamId: string,
  id: string,
  changes: Updateable<EnvironmentsTable>,
): Promise<EnvironmentRow | undefined> {
  return db
    .updateTable('environments')
    .set(changes)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEnvironmentRow(db: Kysely<Database>, teamId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('environments').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
