/** Reading the team's audit log (listAuditEvents): newest first, filtered, in keyset pages. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import type { components } from '@agent-runs/contract';
import { filterFingerprint, keysetPage } from '../pagination';
import { listTeamAuditEvents, type AuditEventFilters, type AuditEventRow } from './repository';

type Schemas = components['schemas'];

export function toAuditEventView(row: AuditEventRow): Schemas['AuditEvent'] {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    actor: { key_id: row.actor_key_id, name: row.actor_key_name },
    operation_id: row.operation_id,
    action: row.action,
    resource: { type: row.resource_type, id: row.resource_id },
    address: row.address,
    changed_fields: JSON.parse(row.changed_fields) as string[],
  };
}

export async function listAuditEvents(
  db: Kysely<Database>,
  teamId: string,
  query: { limit: number; cursor?: string | undefined; filters: AuditEventFilters },
): Promise<Schemas['ListAuditEventsResponse']> {
  const { items, page_info } = await keysetPage({
    cursor: query.cursor,
    limit: query.limit,
    sortKey: 'occurred_at',
    order: 'desc',
    scope: filterFingerprint({ ...query.filters }),
    keyOf: (row: AuditEventRow) => ({ value: row.occurred_at, id: row.id }),
    fetch: (after, limit) => listTeamAuditEvents(db, teamId, query.filters, { limit, after }),
    toItems: (rows) => rows.map(toAuditEventView),
  });
  return { audit_events: items, page_info };
}
