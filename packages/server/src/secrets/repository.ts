/** Team secrets table access. Every query is scoped to the caller's team; values stay encrypted here. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, TeamSecretsTable } from '../db/tables';

export type TeamSecretRow = Selectable<TeamSecretsTable>;
export type SecretMetadataRow = Pick<TeamSecretRow, 'name' | 'created_at' | 'updated_at'>;

export async function findTeamSecret(db: Kysely<Database>, teamId: string, name: string): Promise<TeamSecretRow | undefined> {
  return db.selectFrom('team_secrets').selectAll().where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
}

/** Sorted by name; `after` is the last name of the previous page. Fetches limit + 1. Never selects values. */
export async function listTeamSecretNames(
  db: Kysely<Database>,
  teamId: string,
  page: { limit: number; after?: string },
): Promise<SecretMetadataRow[]> {
  let query = db.selectFrom('team_secrets').select(['name', 'created_at', 'updated_at']).where('team_id', '=', teamId);
  if (page.after !== undefined) query = query.where('name', '>', page.after);
  return query.orderBy('name', 'asc').limit(page.limit + 1).execute();
}

/** Creates the secret; throws a unique violation if the name exists. */
export async function insertTeamSecret(db: Kysely<Database>, row: TeamSecretRow): Promise<void> {
  await db.insertInto('team_secrets').values(row).execute();
}

/** Creates or replaces the value (keeps created_at of an existing secret). */
export async function upsertTeamSecret(
  db: Kysely<Database>,
  teamId: string,
  name: string,
  encryptedValue: string,
  now: string,
): Promise<SecretMetadataRow> {
  return db
    .insertInto('team_secrets')
    .values({ team_id: teamId, name, value: encryptedValue, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'name']).doUpdateSet({ value: encryptedValue, updated_at: now }))
    .returning(['name', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteTeamSecret(db: Kysely<Database>, teamId: string, name: string): Promise<boolean> {
  const result = await db.deleteFrom('team_secrets').where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Live (not deleted) webhooks of the team that name this secret. */
export async function webhooksNamingSecret(
  db: Kysely<Database>,
  teamId: string,
  name: string,
): Promise<Array<{ id: string; auth_mode: string }>> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'auth_mode'])
    .where('team_id', '=', teamId)
    .where('secret_name', '=', name)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}
