/**
 * Opaque keyset cursors shared by every list: base64url of JSON `{k: sort key, v: last value, id: last id,
 * o: order, f?: filter fingerprint}`. Decoding checks shape and that the cursor belongs to the requested
 * sort and filters (the contract: cursors are only valid with the filters and sort they were issued for);
 * anything else is a 400 `invalid_request`, never a 500.
 */
import { createHash } from 'node:crypto';
import { invalidRequest } from './problems';

export type SortOrder = 'asc' | 'desc';

export interface KeysetPosition<K extends string = string> {
  sortKey: K;
  value: string;
  id: string;
  order: SortOrder;
  /** Fingerprint of the list's filters (see filterFingerprint); absent for unfiltered lists. */
  scope?: string;
}

export function encodeCursor(position: KeysetPosition): string {
  const { sortKey: k, value: v, id, order: o, scope: f } = position;
  return Buffer.from(JSON.stringify(f === undefined ? { k, v, id, o } : { k, v, id, o, f }), 'utf8').toString('base64url');
}

/** A short stable fingerprint of a list's filters, so a cursor cannot be replayed under other filters. */
export function filterFingerprint(filters: Record<string, unknown>): string {
  const normalized = Object.entries(filters)
    .filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => [k, Array.isArray(v) ? [...v].map(String).sort() : v] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(normalized)).digest('base64url').slice(0, 16);
}

/** Decodes a cursor for a list sorted by `sortKey` in `order` (with filter fingerprint `scope`, if any). */
export function decodeCursor<K extends string>(cursor: string, sortKey: K, order: SortOrder, scope?: string): KeysetPosition<K> {
  const invalid = () =>
    invalidRequest('The cursor is not valid for this list; pass next_cursor from the previous page unchanged with the same sort.', [
      { path: 'query.cursor', message: 'is not a cursor of this list and sort' },
    ]);
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { k, v, id, o, f } = parsed as Record<string, unknown>;
  if (k !== sortKey || o !== order || typeof v !== 'string' || typeof id !== 'string' || id === '') throw invalid();
  if (f !== scope) throw invalid();
  return scope === undefined ? { sortKey, value: v, id, order } : { sortKey, value: v, id, order, scope };
}

/** Runs `fetch(limit + 1)` semantics: returns the page and whether another one follows. */
export function pageOf<T>(rows: T[], limit: number): { items: T[]; hasNext: boolean } {
  return rows.length > limit ? { items: rows.slice(0, limit), hasNext: true } : { items: rows, hasNext: false };
}
