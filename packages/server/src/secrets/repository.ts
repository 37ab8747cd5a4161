/** Team secrets table access. Every query is scoped to the caller's team; values stay encrypted here. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, TeamSecretsTable } from '../db/tables';
import { teamScope } from '../db/scoped';

export type TeamSecretRow = Selectable<TeamSecretsTable>;
export type SecretMetadataRow = Pick<TeamSecretRow, 'name' | 'created_at' | 'updated_at'>;

export async function findTeamSecret(db: Kysely<Database>, teamId: string, name: string): Promise<TeamSecretRow | undefined> {
  return teamScope(db, teamId).selectFrom('team_secrets').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Sorted by name; `after` is the last name of the previous page. Fetches limit + 1. Never selects values. */
export async function listTeamSecretNames(db: Kysely<Database>, teamId: string, page: { limit: number; after?: string }): Promise<SecretMetadataRow[]> {
  let query = teamScope(db, teamId).selectFrom('team_secrets').select(['name', 'created_at', 'updated_at']);
  if (page.after !== undefined) query = query.where('name', '>', page.after);
  return query
    .orderBy('name', 'asc')
    .limit(page.limit + 1)
    .execute();
}

/** Creates the secret; throws a unique violation if the name exists. */
export async function insertTeamSecret(db: Kysely<Database>, row: TeamSecretRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('team_secrets', row).execute();
}

/** Creates or replaces the value (keeps created_at of an existing secret). */
export async function upsertTeamSecret(db: Kysely<Database>, teamId: string, name: string, encryptedValue: string, now: string): Promise<SecretMetadataRow> {
  return teamScope(db, teamId)
    .insertInto('team_secrets', { name, value: encryptedValue, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'name']).doUpdateSet({ value: encryptedValue, updated_at: now }))
    .returning(['name', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteTeamSecret(db: Kysely<Database>, teamId: string, name: string): Promise<boolean> {
  const result = await teamScope(db, teamId).deleteFrom('team_secrets').where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Live (not deleted) webhooks of the team that name this secret. */
export async function webhooksNamingSecret(db: Kysely<Database>, teamId: string, name: string): Promise<Array<{ id: string; auth_mode: string }>> {
  return teamScope(db, teamId)
    .selectFrom('webhooks')
    .select(['id', 'auth_mode'])
    .where('secret_name', '=', name)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}
