/**
 * Identifier helpers (docs/decisions.md §ID formats). Prefixed ids (`team_…`, `key_…`, `step_…`) are
 * `<prefix>_` + a lower-cased monotonic ULID (10 characters of time, 16 of randomness), so (created_at, id)
 * orders rows in creation order; run and session ids are UUIDv4; API key values are 32 random bytes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

export type IdPrefix = 'team' | 'key' | 'aud' | 'fac' | 'wh' | 'dlv' | 'aut' | 'env' | 'sch' | 'step' | 'fup' | 'sub' | 'evt' | 'msg' | 'att';

/**
 * Random numbers in [0, 1] for ulidx, drawn from a pooled buffer of random bytes. ulidx's own source asks
 * WebCrypto for one byte per character (16 native calls per id, ~0.1 ms of CPU each id); same bytes and the
 * same mapping (byte / 255), one call per 4 KiB.
 */
function pooledRandom(): () => number {
  let pool = randomBytes(4096);
  let next = 0;
  return () => {
    if (next === pool.length) {
      pool = randomBytes(4096);
      next = 0;
    }
    return pool[next++]! / 0xff;
  };
}

// One factory per process: ids made in the same (or an earlier, e.g. a ManualClock that does not move)
// millisecond increment the previous randomness, so they still sort in the order they were made.
const ulid = monotonicFactory(pooledRandom());

/** `<prefix>_` + 26 lowercase Crockford base32 characters, monotonic within this process. */
export const newSortableId = (prefix: string, now: Date): string => `${prefix}_${ulid(now.getTime()).toLowerCase()}`;

export const newId = (prefix: IdPrefix, now: Date = new Date()): string => newSortableId(prefix, now);
export const newRunId = (): string => randomUUID();
export const newSessionId = (): string => randomUUID();

/** API key values: `ar_live_` + 43 characters base64url (32 random bytes). */
export const newApiKeyValue = (): string => `ar_live_${randomBytes(32).toString('base64url')}`;

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');
