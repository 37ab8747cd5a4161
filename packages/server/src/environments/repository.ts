/** environments access: every query is scoped to the caller's team. */
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, EnvironmentsTable } from '../db/tables';

export type EnvironmentRow = Selectable<EnvironmentsTable>;

export async function insertEnvironment(db: Kysely<Database>, row: EnvironmentRow): Promise<void> {
  await db.insertInto('environments').values(row).execute();
}

export async function findEnvironment(db: Kysely<Database>, teamId: string, id: string): Promise<EnvironmentRow | undefined> {
  return db.selectFrom('environments').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
}

export async function environmentExists(db: Kysely<Database>, teamId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('environments').select('id').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Newest first; `after` is the last row of the previous page. Fetches limit + 1 to tell whether more follow. */
export async function listEnvironmentRows(
  db: Kysely<Database>,
  teamId: string,
  page: { limit: number; after?: { createdAt: string; id: string } },
): Promise<EnvironmentRow[]> {
  let q = db
    .selectFrom('environments')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.after) {
    const { createdAt, id } = page.after;
    q = q.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  return q.execute();
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
