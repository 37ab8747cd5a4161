/**
 * Identifier helpers (docs/decisions.md §ID formats). Prefixed ids (`team_…`, `key_…`) come from
 * engine/ids.ts `newSortableId` (ULID-like: time then randomness), so (created_at, id) orders rows in
 * creation order; run and session ids are UUIDv4; API key values are 32 random bytes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { newSortableId } from '../engine/ids';

export type IdPrefix = 'team' | 'key' | 'fac' | 'wh' | 'dlv' | 'aut' | 'env' | 'step' | 'fup';

export const newId = (prefix: IdPrefix, now: Date = new Date()): string => newSortableId(prefix, now);
export const newRunId = (): string => randomUUID();
export const newSessionId = (): string => randomUUID();

/** API key values: `ar_live_` + 43 characters base64url (32 random bytes). */
export const newApiKeyValue = (): string => `ar_live_${randomBytes(32).toString('base64url')}`;

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');
