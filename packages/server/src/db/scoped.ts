/**
 * Tenancy by structure: the one way to query a team's tables (docs/decisions.md §Tenancy by structure).
 *
 * `teamScope(db, teamId)` hands out the query builders of the team-owned tables (every table with a `team_id`
 * column, db/tables.ts) with the team's condition already in them: selects, updates and deletes carry
 * `team_id = ?`, inserts set `team_id`. Queries that act for every team (the ingress resolving a webhook by its
 * public id, the worker's claim, the schedulers, retention; docs/wire.md) write `db.selectFrom(…)` themselves
 * inside a function named `…ServiceWide`; test/architecture/tenancy.test.ts fails on any other unscoped query.
 */
import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type ExpressionBuilder,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Database } from './tables';

/** The tables holding a team's data: those with a `team_id` column. */
export type TeamTable = { [T in keyof Database]: Database[T] extends { team_id: string } ? T : never }[keyof Database];

/** A row to insert into a team table: its `team_id` comes from the scope (a value given here is overwritten). */
export type TeamInsertable<T extends TeamTable> = Omit<Insertable<Database[T]>, 'team_id'> & { team_id?: string };

/** `'table as alias'` of a team table, as Kysely writes an aliased table. */
type Aliased<T extends TeamTable, A extends string> = `${T} as ${A}`;
type WithAlias<T extends TeamTable, A extends string> = Database & { [K in A]: Database[T] };

export interface SelectOptions {
  /**
   * false: the condition is written `+table.team_id = ?`, which SQLite's planner cannot read through an index, so
   * it picks another one (runs/repository.ts: a rare metadata pair drives a runs page). SQLite only.
   */
  teamIndex?: boolean;
}

export interface TeamScope {
  readonly teamId: string;
  selectFrom<T extends TeamTable>(table: T, options?: SelectOptions): SelectQueryBuilder<Database, T, {}>;
  selectFrom<T extends TeamTable, A extends string>(table: Aliased<T, A>, options?: SelectOptions): SelectQueryBuilder<WithAlias<T, A>, A, {}>;
  updateTable<T extends TeamTable>(table: T): UpdateQueryBuilder<Database, T, T, UpdateResult>;
  deleteFrom<T extends TeamTable>(table: T): DeleteQueryBuilder<Database, T, DeleteResult>;
  insertInto<T extends TeamTable>(table: T, values: TeamInsertable<T> | ReadonlyArray<TeamInsertable<T>>): InsertQueryBuilder<Database, T, InsertResult>;
  /** A subquery over a team table inside another query (`eb` is the outer query's expression builder). */
  subqueryFrom<DB, TB extends keyof DB, T extends TeamTable & keyof DB>(eb: ExpressionBuilder<DB, TB>, table: T): SelectQueryBuilder<DB, TB | T, {}>;
  subqueryFrom<DB, TB extends keyof DB, T extends TeamTable, A extends string>(
    eb: ExpressionBuilder<DB, TB>,
    table: Aliased<T, A>,
  ): SelectQueryBuilder<DB & { [K in A]: Database[T] }, TB | A, {}>;
}

/** `db` may be a transaction (a Transaction<Database> is a Kysely<Database>). */
export function teamScope(db: Kysely<Database>, teamId: string): TeamScope {
  // Kysely cannot type a condition on a column of a table chosen by a type parameter: the casts stay here.
  const teamColumn = (table: string): any => `${table.includes(' as ') ? table.split(' as ')[1] : table}.team_id`;
  return {
    teamId,
    selectFrom: (table: string, options: SelectOptions = {}) => {
      const column = options.teamIndex === false ? sql`+${sql.ref(teamColumn(table))}` : teamColumn(table);
      return (db.selectFrom(table as TeamTable) as any).where(column, '=', teamId);
    },
    updateTable: (table: TeamTable) => (db.updateTable(table) as any).where(teamColumn(table), '=', teamId),
    deleteFrom: (table: TeamTable) => (db.deleteFrom(table) as any).where(teamColumn(table), '=', teamId),
    insertInto: (table: TeamTable, values: TeamInsertable<TeamTable> | ReadonlyArray<TeamInsertable<TeamTable>>) => {
      const rows = (Array.isArray(values) ? values : [values]).map((row) => ({ ...row, team_id: teamId }));
      return db.insertInto(table).values(rows as any);
    },
    subqueryFrom: (eb: ExpressionBuilder<any, any>, table: string) => (eb.selectFrom(table) as any).where(teamColumn(table), '=', teamId),
  } as TeamScope;
}
