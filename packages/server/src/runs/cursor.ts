/**
 * Cursors of GET /agent/runs: opaque base64url JSON of {sort key, last value, last id, order, filter
 * fingerprint}. A malformed cursor, or one issued for another sort or other filters → 400 invalid_request.
 */
import { decodeCursor, encodeCursor, filterFingerprint, type SortOrder } from '../pagination';
import type { RunFilters, RunRow } from './repository';

export type RunsSortKey = 'created_at' | 'updated_at';

export function decodeRunsCursor(cursor: string, sortBy: RunsSortKey, order: SortOrder, filters: RunFilters): { value: string; id: string } {
  const { value, id } = decodeCursor(cursor, sortBy, order, filterFingerprint({ ...filters }));
  return { value, id };
}

export function encodeRunsCursor<K extends RunsSortKey>(last: Pick<RunRow, 'id' | K>, sortBy: K, order: SortOrder, filters: RunFilters): string {
  return encodeCursor({ sortKey: sortBy, value: last[sortBy], id: last.id, order, scope: filterFingerprint({ ...filters }) });
}
