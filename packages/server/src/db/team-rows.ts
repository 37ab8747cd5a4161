/**
 * The row operations the repositories of named team resources share (automations, webhooks, environments,
 * schedules, notification subscriptions): is a name taken, update a row and read it back, delete a row. All
 * through the team's scope (db/scoped.ts).
 */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { teamScope, type TeamTable } from './scoped';
import type { Database } from './tables';

/** Team tables whose rows have an `id`. */
export type TeamRowTable = { [T in TeamTable]: Database[T] extends { id: string } ? T : never }[TeamTable];
/** Team tables whose rows also have a unique `name` in some parent (a factory) or the team. */
export type NamedTeamTable = { [T in TeamRowTable]: Database[T] extends { name: string } ? T : never }[TeamRowTable];

/** Further equality conditions on a row's columns; null means `IS NULL` (e.g. `{ deleted_at: null }`: a live row). */
export type RowConditions<T extends TeamTable> = { [C in keyof Database[T] & string]?: string | null };

// Kysely cannot type conditions on columns of a table chosen by a type parameter: the casts stay here.
function withConditions<Q>(query: Q, conditions: Record<string, string | null | undefined>): Q {
  let q = query as any;
  for (const [column, value] of Object.entries(conditions)) {
    if (value !== undefined) q = q.where(column, value === null ? 'is' : '=', value);
  }
  return q as Q;
}

/** Whether another row of `table` (not `exceptId`) meeting `within` already has this name. */
export async function isNameTaken<T extends NamedTeamTable>(
  db: Kysely<Database>,
  teamId: string,
  table: T,
  name: string,
  options: { within?: RowConditions<T>; exceptId?: string | undefined } = {},
): Promise<boolean> {
  let query = withConditions(teamScope(db, teamId).selectFrom(table as NamedTeamTable) as any, { name, ...options.within });
  if (options.exceptId) query = query.where('id', '!=', options.exceptId);
  return (await query.select('id').executeTakeFirst()) !== undefined;
}

/** Applies `changes` to the team's row `id` (meeting `where`); returns the row as it is now, or undefined when there is none. */
export function updateRow<T extends TeamRowTable>(
  db: Kysely<Database>,
  teamId: string,
  table: T,
  id: string,
  changes: Updateable<Database[T]>,
  where: RowConditions<T> = {},
): Promise<Selectable<Database[T]> | undefined> {
  const query = teamScope(db, teamId).updateTable(table as TeamRowTable) as any;
  return withConditions(query.set(changes).where('id', '=', id), where)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the team's row `id`; false when there was none. */
export async function deleteRow(db: Kysely<Database>, teamId: string, table: TeamRowTable, id: string): Promise<boolean> {
  const result = await (teamScope(db, teamId).deleteFrom(table) as any).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
