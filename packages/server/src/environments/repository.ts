/** environments access: every query is scoped to the caller's team. */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, EnvironmentsTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';
import { deleteRow, updateRow } from '../db/team-rows';

export type EnvironmentRow = Selectable<EnvironmentsTable>;

/** listEnvironments' orders (contract): most recently updated first, or by name ascending. */
export type EnvironmentSort = 'last_updated' | 'name';
export const ENVIRONMENT_SORT_COLUMN = { last_updated: 'updated_at', name: 'name' } as const satisfies Record<EnvironmentSort, keyof EnvironmentRow>;
export const ENVIRONMENT_SORT_ORDER = { last_updated: 'desc', name: 'asc' } as const satisfies Record<EnvironmentSort, 'asc' | 'desc'>;

export async function insertEnvironment(db: Kysely<Database>, row: EnvironmentRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('environments', row).execute();
}

export async function findEnvironment(db: Kysely<Database>, teamId: string, id: string): Promise<EnvironmentRow | undefined> {
  return teamScope(db, teamId).selectFrom('environments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Several environments of the team by id (those that exist). */
export async function findEnvironments(db: Kysely<Database>, teamId: string, ids: readonly string[]): Promise<EnvironmentRow[]> {
  if (ids.length === 0) return [];
  return teamScope(db, teamId)
    .selectFrom('environments')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * One page in `sort` order by (sort column, id); `after` is the last row of the previous page. Fetches
 * limit + 1 to tell whether more follow. Served by environments_team_updated_idx / environments_team_name_idx.
 */
export async function listEnvironmentRows(
  db: Kysely<Database>,
  teamId: string,
  page: { sort: EnvironmentSort; limit: number; after?: KeysetAfter | undefined },
): Promise<EnvironmentRow[]> {
  const column = ENVIRONMENT_SORT_COLUMN[page.sort];
  const order = ENVIRONMENT_SORT_ORDER[page.sort];
  let query = teamScope(db, teamId).selectFrom('environments').selectAll();
  if (page.after) {
    const { value, id } = page.after;
    query = query.where(sql<boolean>`(${sql.ref(column)}, id) ${sql.raw(order === 'desc' ? '<' : '>')} (${value}, ${id})`);
  }
  return query
    .orderBy(column, order)
    .orderBy('id', order)
    .limit(page.limit + 1)
    .execute();
}

/** Every environment of the team, by name: what GET /agent names as the environments a skill runs in. */
export async function listEnvironmentNames(db: Kysely<Database>, teamId: string): Promise<Array<{ uid: string; name: string }>> {
  const rows = await teamScope(db, teamId).selectFrom('environments').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  return rows.map((row) => ({ uid: row.id, name: row.name }));
}

/** Returns the updated row, or undefined when no environment of the team has this id. */
export function updateEnvironmentRow(
  db: Kysely<Database>,
  teamId: string,
  id: string,
  changes: Updateable<EnvironmentsTable>,
): Promise<EnvironmentRow | undefined> {
  return updateRow(db, teamId, 'environments', id, changes);
}

export function deleteEnvironmentRow(db: Kysely<Database>, teamId: string, id: string): Promise<boolean> {
  return deleteRow(db, teamId, 'environments', id);
}
