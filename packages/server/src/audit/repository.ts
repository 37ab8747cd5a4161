/** Audit event queries: every read takes the team; only the retention sweep is service-wide (its name says so). */
import type { Insertable, Kysely } from 'kysely';
import type { AuditEventsTable, Database, Timestamp } from '../db/tables';
import { newestFirstPage } from '../db/keyset';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';

export type AuditEventRow = AuditEventsTable;

export interface AuditEventFilters {
  resourceType?: string | undefined;
  resourceId?: string | undefined;
  actorKeyId?: string | undefined;
  /** Inclusive lower bound of `occurred_at` (stored form). */
  since?: Timestamp | undefined;
  /** Exclusive upper bound of `occurred_at` (stored form). */
  until?: Timestamp | undefined;
}

export async function insertAuditEvent(db: Kysely<Database>, row: Insertable<AuditEventsTable>): Promise<void> {
  await teamScope(db, row.team_id).insertInto('audit_events', row).execute();
}

export async function listTeamAuditEvents(
  db: Kysely<Database>,
  teamId: string,
  filters: AuditEventFilters,
  page: { limit: number; after?: KeysetAfter | undefined }, // newest first
): Promise<AuditEventRow[]> {
  let query = teamScope(db, teamId).selectFrom('audit_events').selectAll();
  if (filters.resourceType !== undefined) query = query.where('resource_type', '=', filters.resourceType as AuditEventRow['resource_type']);
  if (filters.resourceId !== undefined) query = query.where('resource_id', '=', filters.resourceId);
  if (filters.actorKeyId !== undefined) query = query.where('actor_key_id', '=', filters.actorKeyId);
  if (filters.since !== undefined) query = query.where('occurred_at', '>=', filters.since);
  if (filters.until !== undefined) query = query.where('occurred_at', '<', filters.until);
  return newestFirstPage(query, 'occurred_at', page).execute();
}

/** SERVICE-WIDE (retention): deletes up to `batchSize` events older than `cutoff`, of every team; returns how many. */
export async function deleteAuditEventsBeforeServiceWide(db: Kysely<Database>, cutoff: Timestamp, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_events')
    .where('id', 'in', (eb) => eb.selectFrom('audit_events').select('id').where('occurred_at', '<', cutoff).orderBy('occurred_at').limit(batchSize))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
