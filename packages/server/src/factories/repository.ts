/** Factories table access. Every query is scoped to the caller's team. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, FactoriesTable } from '../db/tables';

export type FactoryRow = Selectable<FactoriesTable>;

export async function insertFactory(db: Kysely<Database>, row: FactoryRow): Promise<void> {
  await db.insertInto('factories').values(row).execute();
}

export async function findFactory(db: Kysely<Database>, teamId: string, factoryId: string): Promise<FactoryRow | undefined> {
  return db.selectFrom('factories').selectAll().where('team_id', '=', teamId).where('id', '=', factoryId).executeTakeFirst();
}

/** Newest first; `before` is the (created_at, id) of the last row of the previous page. Fetches limit + 1. */
export async function listFactoryRows(
  db: Kysely<Database>,
  teamId: string,
  page: { limit: number; before?: { createdAt: string; id: string } },
): Promise<FactoryRow[]> {
  let query = db.selectFrom('factories').selectAll().where('team_id', '=', teamId);
  const before = page.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
}

/**
 * Touches the factory row inside a transaction, which takes its row lock on PostgreSQL (SQLite serialises
 * writers anyway): concurrent webhook creates in one factory then count and insert one after the other,
 * so the per-factory limit holds under races. Returns false when the factory is not the team's.
 */
export async function lockFactory(db: Kysely<Database>, teamId: string, factoryId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('factories')
    .set({ updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', factoryId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
