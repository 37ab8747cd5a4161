/** Delivery log reads. Every query is scoped to the caller's team (the ingress writes in ingress/record.ts). */
import type { Kysely, Selectable } from 'kysely';
import { newestFirstPage } from '../../db/keyset';
import type { Database, WebhookDeliveriesTable } from '../../db/tables';
import type { KeysetAfter } from '../../pagination';
import { teamScope } from '../../db/scoped';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type DeliveryListRow = Omit<DeliveryRow, 'payload' | 'accepted_identity' | 'accepted_body_digest'>;

const LIST_COLUMNS = [
  'id',
  'team_id',
  'factory_id',
  'webhook_id',
  'label',
  'size',
  'received_at',
  'identity',
  'identity_source',
  'duplicate_of',
  'rejection_reason',
] as const;

/** Newest first by received_at, after `page.after` (the previous page's last entry). Fetches limit + 1. */
export async function listDeliveryRows(
  db: Kysely<Database>,
  teamId: string,
  webhookId: string,
  page: { limit: number; after?: KeysetAfter | undefined },
): Promise<DeliveryListRow[]> {
  const query = teamScope(db, teamId).selectFrom('webhook_deliveries').select(LIST_COLUMNS).where('webhook_id', '=', webhookId);
  return newestFirstPage(query, 'received_at', page).execute();
}

export async function findDeliveryRow(db: Kysely<Database>, teamId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  return teamScope(db, teamId).selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', deliveryId).executeTakeFirst();
}
