/** The keyset page query of the newest-first lists; pagination.ts keysetPage drives it and reads the extra row. */
import type { SelectQueryBuilder } from 'kysely';
import type { KeysetAfter } from '../pagination';

/**
 * Orders `qb` newest first by (`column`, id), keeps the rows after `after` (the previous page's last row) and
 * fetches `limit + 1` of them: the extra row tells keysetPage whether another page follows.
 */
export function newestFirstPage<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  column: 'created_at' | 'received_at' | 'attempted_at' | 'occurred_at',
  page: { limit: number; after?: KeysetAfter | undefined },
): QB {
  const { after } = page;
  let query: SelectQueryBuilder<any, any, any> = qb;
  if (after) {
    query = query.where((eb) => eb.or([eb(column, '<', after.value), eb.and([eb(column, '=', after.value), eb('id', '<', after.id)])]));
  }
  return query
    .orderBy(column, 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1) as QB;
}
