/**
 * API keys: generated as `ar_live_…`, stored only as a sha256 hash (plus a display prefix), shown once.
 */
import type { AuditTrail } from '../audit/trail';
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { toTimestamp, type Clock } from '../clock';
import { newApiKeyValue, newId, sha256Hex } from '../crypto/ids';
import type { Database } from '../db/tables';
import type { components } from '@agent-runs/contract';
import { keysetPage, newestFirst } from '../pagination';
import { authenticationRequired, conflict, limitExceeded, resourceNotFound } from '../problems';
import { findTeam, lockTeam } from '../teams/repository';
import {
  countActiveAdminKeys,
  countActiveKeys,
  findActiveApiKey,
  findActiveKeyByHashServiceWide,
  insertApiKey,
  listActiveApiKeys,
  revokeApiKey,
  touchApiKey,
  type ApiKeyRow,
} from './repository';

export type Role = components['schemas']['ApiKeyRole'];

export interface Principal {
  teamId: string;
  keyId: string;
  role: Role;
  displayName: string;
}

type Schemas = components['schemas'];
/** ApiKey: `name` is null when the key was created without one (stored as ''). */
export type ApiKeyView = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['ApiKeyWithValue'];

const KEY_PREFIX_LENGTH = 12;
/** last_used_at is informational: writing it at most once a minute keeps reads free of writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return { key_id: row.id, name: row.name === '' ? null : row.name, role: row.role, created_at: row.created_at };
}

/** How runs name the key's holder (RunCreatorInfo.display_name): the key name, else its id. */
export const displayNameOf = (row: Pick<ApiKeyRow, 'id' | 'name'>): string => (row.name === '' ? row.id : row.name);

export async function createApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { teamId: string; name: string | undefined; role: Role; createdBy: string; value?: string; keysPerTeam?: number },
  /** The admin request's trail; operator commands and the first start, which no key makes, have none. */
  audit?: AuditTrail,
): Promise<CreatedApiKey> {
  const value = input.value ?? newApiKeyValue();
  const now = clock.now();
  const row: ApiKeyRow = {
    id: newId('key', now),
    team_id: input.teamId,
    name: input.name ?? '',
    role: input.role,
    key_hash: sha256Hex(value),
    key_prefix: value.slice(0, KEY_PREFIX_LENGTH),
    created_by: input.createdBy,
    created_at: toTimestamp(now),
    last_used_at: null,
    revoked_at: null,
  };
  const { keysPerTeam } = input;
  await db.transaction().execute(async (tx) => {
    if (keysPerTeam !== undefined) {
      // Each key brings its own request budget and event streams: the team's count bounds them (API_KEYS_PER_TEAM).
      await lockTeam(tx, input.teamId);
      if ((await countActiveKeys(tx, input.teamId)) >= keysPerTeam) {
        throw limitExceeded(`A team holds at most ${keysPerTeam} active API keys (API_KEYS_PER_TEAM); delete one before creating another.`);
      }
    }
    await insertApiKey(tx, row);
    await audit?.record(tx, row.id);
  });
  return { ...toApiKeyView(row), api_key: value };
}

/** The principal of a presented key, or undefined for an unknown or revoked key. */
export async function authenticateApiKey(db: Kysely<Database>, clock: Clock, presented: string): Promise<Principal | undefined> {
  const hash = sha256Hex(presented);
  const row = await findActiveKeyByHashServiceWide(db, hash);
  // The lookup is by hash already; the constant-time compare makes the final decision independent of timing.
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  const now = clock.now();
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await touchApiKey(db, row.team_id, row.id, toTimestamp(now));
  }
  return { teamId: row.team_id, keyId: row.id, role: row.role, displayName: displayNameOf(row) };
}

/** The calling key and its team (getCurrentApiKey). */
export async function currentApiKey(db: Kysely<Database>, principal: Principal): Promise<Schemas['CurrentApiKey']> {
  const [key, team] = await Promise.all([findActiveApiKey(db, principal.teamId, principal.keyId), findTeam(db, principal.teamId)]);
  // The key authenticated this request a moment ago: only a revocation in between takes it away.
  if (!key || !team) throw authenticationRequired('This API key was deleted.');
  return { key: toApiKeyView(key), team: { team_id: team.id, name: team.name } };
}

export async function listApiKeys(db: Kysely<Database>, teamId: string, query: { limit: number; cursor?: string }): Promise<Schemas['ListApiKeysResponse']> {
  // Newest first, as the contract says.
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listActiveApiKeys(db, teamId, { limit, after }),
    toItems: (rows) => rows.map(toApiKeyView),
  });
  return { api_keys: items, page_info };
}

/** Revokes a key of the team. The team's last admin key stays (409): a team cannot lock itself out. */
export async function deleteApiKey(db: Kysely<Database>, clock: Clock, teamId: string, keyId: string, audit: AuditTrail): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // One deletion per team at a time: two admins deleting each other's keys must not both see the other's key left.
    await lockTeam(tx, teamId);
    const key = await findActiveApiKey(tx, teamId, keyId);
    if (!key) throw resourceNotFound(`API key ${keyId} not found.`);
    if (key.role === 'admin' && (await countActiveAdminKeys(tx, teamId)) <= 1) {
      throw conflict(`API key ${keyId} is the team's last admin key; create another admin key before deleting it.`);
    }
    await revokeApiKey(tx, teamId, keyId, toTimestamp(clock.now()));
    await audit.record(tx, keyId);
  });
}
