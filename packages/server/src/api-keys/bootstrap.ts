/**
 * Start-up bootstrap (docs/wire.md §Operating the server), in two steps main.ts runs at different moments:
 * - `applyBootstrapAdminKey`, before the listener opens: with BOOTSTRAP_ADMIN_KEY set, ensure team `default`
 *   and an active admin key with exactly that value;
 * - `createFirstAdminKey`, once the server is listening: on an empty database (no team yet), create team
 *   `default` with a fresh admin key and hand it back so start-up prints it once. Creating it only after the
 *   listen succeeded means a start that fails (port taken) leaves no key that nobody ever saw.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import { sha256Hex } from '../crypto/ids';
import type { Database } from '../db/tables';
import { createApiKey } from './service';
import { countTeams } from '../teams/repository';
import { ensureTeam } from '../teams/service';

export const DEFAULT_TEAM = 'default';

export async function applyBootstrapAdminKey(db: Kysely<Database>, clock: Clock, bootstrapAdminKey: string): Promise<{ teamId: string }> {
  const team = await ensureTeam(db, clock, DEFAULT_TEAM);
  const existing = await findKeyByValueServiceWide(db, bootstrapAdminKey);
  if (!existing) {
    await createApiKey(db, clock, {
      teamId: team.id,
      name: 'bootstrap admin',
      role: 'admin',
      createdBy: 'operator',
      value: bootstrapAdminKey,
    });
  } else if (existing.revoked_at !== null || existing.role !== 'admin' || existing.team_id !== team.id) {
    // The operator asked for exactly this key to work as the default team's admin key: make it so.
    await makeAdminKeyOfServiceWide(db, existing.id, team.id);
  }
  return { teamId: team.id };
}

// The operator's key is looked up by its value alone, whichever team holds it, and may move to `default`.
function findKeyByValueServiceWide(db: Kysely<Database>, value: string) {
  return db.selectFrom('api_keys').select(['id', 'team_id', 'role', 'revoked_at']).where('key_hash', '=', sha256Hex(value)).executeTakeFirst();
}

async function makeAdminKeyOfServiceWide(db: Kysely<Database>, keyId: string, teamId: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: null, role: 'admin', team_id: teamId }).where('id', '=', keyId).execute();
}

/** On a database without any team: team `default` and its first admin key, whose value is returned (print it once). */
export async function createFirstAdminKey(db: Kysely<Database>, clock: Clock): Promise<string | undefined> {
  if ((await countTeams(db)) > 0) return undefined;
  const team = await ensureTeam(db, clock, DEFAULT_TEAM);
  const key = await createApiKey(db, clock, { teamId: team.id, name: 'initial admin', role: 'admin', createdBy: 'operator' });
  return key.api_key;
}
