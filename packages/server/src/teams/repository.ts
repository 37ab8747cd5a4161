/** Teams table access. Teams are the tenancy boundary; they are created by operators, never by tenants. */
import type { Kysely, Selectable } from 'kysely';
import { dialectOfDb, forUpdate } from '../db/dialect';
import type { Database, TeamsTable } from '../db/tables';

export type Team = Selectable<TeamsTable>;

export async function insertTeam(db: Kysely<Database>, team: Team): Promise<void> {
  await db.insertInto('teams').values(team).execute();
}

export async function findTeam(db: Kysely<Database>, teamId: string): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
}

export async function findTeamByName(db: Kysely<Database>, name: string): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function countTeams(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inside a transaction: holds the team's row until commit, so changes that must see each other run in turn. */
export async function lockTeam(tx: Kysely<Database>, teamId: string): Promise<void> {
  await forUpdate(tx.selectFrom('teams').select('id').where('id', '=', teamId), dialectOfDb(tx)).execute();
}
