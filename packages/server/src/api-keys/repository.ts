/** api_keys access. Every tenant query takes the team id; the auth lookup is by key hash (the key IS the tenant proof). */
import type { Kysely, Selectable } from 'kysely';
import { compiledQuery } from '../db/compiled-query';
import { toCount } from '../db/dialect';
import { newestFirstPage } from '../db/keyset';
import type { ApiKeysTable, Database } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertApiKey(db: Kysely<Database>, row: ApiKeyRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('api_keys', row).execute();
}

/**
 * Authentication lookup: the only unscoped query here — the caller does not know its team before this.
 * Compiled once (db/compiled-query.ts): it runs for every REST request.
 */
const selectActiveKeyByHashServiceWide = compiledQuery((db: Kysely<Database>, keyHash: string) =>
  db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null),
);

export async function findActiveKeyByHashServiceWide(db: Kysely<Database>, keyHash: string): Promise<ApiKeyRow | undefined> {
  return (await selectActiveKeyByHashServiceWide(db, keyHash)).rows[0];
}

export async function touchApiKey(db: Kysely<Database>, teamId: string, keyId: string, at: string): Promise<void> {
  await teamScope(db, teamId).updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}

export async function listActiveApiKeys(
  db: Kysely<Database>,
  teamId: string,
  page: { limit: number; after?: KeysetAfter | undefined }, // newest first
): Promise<ApiKeyRow[]> {
  const query = teamScope(db, teamId).selectFrom('api_keys').selectAll().where('revoked_at', 'is', null);
  return newestFirstPage(query, 'created_at', page).execute();
}

export async function findActiveApiKey(db: Kysely<Database>, teamId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return teamScope(db, teamId).selectFrom('api_keys').selectAll().where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
}

/**
 * Of these key ids, the ones still active. Service-wide (keys of any team, by their unique ids): the event
 * streams of one process belong to many teams, and a revoked key's streams end (http/revoked-key-streams.ts).
 */
export async function findActiveKeyIdsServiceWide(db: Kysely<Database>, keyIds: string[]): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const rows = await db.selectFrom('api_keys').select('id').where('id', 'in', keyIds).where('revoked_at', 'is', null).execute();
  return new Set(rows.map((row) => row.id));
}

export async function countActiveAdminKeys(db: Kysely<Database>, teamId: string): Promise<number> {
  return countActiveKeys(db, teamId, 'admin');
}

/** Active (unrevoked) keys of the team, of one role or all. */
export async function countActiveKeys(db: Kysely<Database>, teamId: string, role?: ApiKeyRow['role']): Promise<number> {
  let query = teamScope(db, teamId)
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('revoked_at', 'is', null);
  if (role) query = query.where('role', '=', role);
  const row = await query.executeTakeFirstOrThrow();
  return toCount(row.n);
}

/** Revokes (keeps the row: runs name the key as their creator). Returns false when no active key matched. */
export async function revokeApiKey(db: Kysely<Database>, teamId: string, keyId: string, at: string): Promise<boolean> {
  const result = await teamScope(db, teamId)
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
