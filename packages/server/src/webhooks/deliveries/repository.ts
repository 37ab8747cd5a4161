/** Delivery log reads. Every query is scoped to the caller's team (the ingress writes in ingress/record.ts). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../../db/tables';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type DeliveryListRow = Omit<DeliveryRow, 'payload' | 'accepted_identity'>;

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

/** Newest first; `before` = (received_at, id) of the previous page's last entry. Fetches limit + 1. */
export async function listDeliveryRows(
  db: Kysely<Database>,
  teamId: string,
  webhookId: string,
  page: { limit: number; before?: { receivedAt: string; id: string } },
): Promise<DeliveryListRow[]> {
  let query = db.selectFrom('webhook_deliveries').select(LIST_COLUMNS).where('team_id', '=', teamId).where('webhook_id', '=', webhookId);
  const before = page.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('received_at', '<', before.receivedAt),
        eb.and([eb('received_at', '=', before.receivedAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
}

export async function findDeliveryRow(
  db: Kysely<Database>,
  teamId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}
