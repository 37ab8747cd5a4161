/**
 * Opaque keyset cursors shared by every list: base64url of JSON `{k: sort key, v: last value, id: last id,
 * o: order, f?: filter fingerprint}`. Decoding checks shape and that the cursor belongs to the requested
 * sort and filters (the contract: cursors are only valid with the filters and sort they were issued for);
 * anything else is a 400 `invalid_request`, never a 500.
 */
import { createHash } from 'node:crypto';
import type { components } from '@agent-runs/contract';
import { invalidRequest } from './problems';

export type SortOrder = 'asc' | 'desc';
export type PageInfo = components['schemas']['PageInfo'];

/** Where a page continues: the sort value and id of the previous page's last row. */
export interface KeysetAfter {
  value: string;
  id: string;
}

export interface KeysetPosition extends KeysetAfter {
  sortKey: string;
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
function decodeCursor(cursor: string, sortKey: string, order: SortOrder, scope: string | undefined): KeysetAfter {
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
  return { value: v, id };
}

export interface KeysetPageOptions<Row, Item> {
  /** The `cursor` query parameter, if any. */
  cursor?: string | undefined;
  limit: number;
  sortKey: string;
  order: SortOrder;
  /** filterFingerprint of the list's filters; leave out for unfiltered lists. */
  scope?: string;
  /** Up to `limit + 1` rows after `after` in the list's order (the extra row says whether another page follows). */
  fetch: (after: KeysetAfter | undefined, limit: number) => Promise<Row[]>;
  /** The row's position: its sort value and id. */
  keyOf: (row: Row) => KeysetAfter;
  /** The answer items of a batch of rows, in order. */
  toItems: (rows: Row[]) => Item[] | Promise<Item[]>;
  /**
   * Ends the page once its items' JSON passes this many bytes (the item that passes it is the last). Rows are
   * then read in steps, `firstRead` first, later ones sized by the bytes left, so huge rows are never all read.
   */
  maxBytes?: number;
  firstRead?: number;
}

/** The order of most lists: newest first, by (created_at, id). */
export const newestFirst = {
  sortKey: 'created_at',
  order: 'desc',
  keyOf: (row: { created_at: string; id: string }): KeysetAfter => ({ value: row.created_at, id: row.id }),
} as const;

/**
 * One page of a keyset-paginated list: decodes `cursor` (400 when it belongs to another list, sort or
 * filters), reads rows after it and answers the items with `page_info` and the cursor of the last one.
 */
export async function keysetPage<Row, Item>(options: KeysetPageOptions<Row, Item>): Promise<{ items: Item[]; page_info: PageInfo }> {
  const { limit, sortKey, order, scope, fetch, keyOf, toItems, maxBytes = Infinity } = options;
  let after = options.cursor ? decodeCursor(options.cursor, sortKey, order, scope) : undefined;
  const items: Item[] = [];
  let bytes = 0;
  let last: Row | undefined;
  let hasNext = false;
  let read = Math.min(limit, options.firstRead ?? limit);
  for (;;) {
    const fetched = await fetch(after, read);
    const rows = fetched.slice(0, read);
    const more = fetched.length > read;
    for (const [i, item] of (await toItems(rows)).entries()) {
      items.push(item);
      last = rows[i]!;
      // +1: the comma that separates it from the next item of the JSON array.
      if (maxBytes !== Infinity) bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
      if (bytes >= maxBytes) {
        hasNext = i < rows.length - 1 || more;
        break;
      }
    }
    if (bytes >= maxBytes || !more) break;
    if (items.length >= limit) {
      hasNext = true;
      break;
    }
    after = keyOf(last!);
    const perItem = bytes / items.length;
    read = Math.max(1, Math.min(limit - items.length, Math.floor((maxBytes - bytes) / perItem) + 1));
  }
  const position = hasNext && last ? keyOf(last) : undefined;
  return {
    items,
    page_info: {
      has_next_page: hasNext,
      next_cursor: position ? encodeCursor({ sortKey, ...position, order, ...(scope === undefined ? {} : { scope }) }) : null,
    },
  };
}
