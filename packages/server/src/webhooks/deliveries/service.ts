/**
 * The delivery log as clients see it (Recent deliveries): newest first, keyset pages; one entry with its
 * stored payload (parsed JSON) for Accepted deliveries. Deleted webhooks keep a readable log until
 * retention prunes it.
 */
import type { ServerContext } from '../../context';
import { toBuffer } from '../../db/dialect';
import { keysetPage } from '../../pagination';
import { textDepthExceeds } from '../../json';
import { resourceNotFound } from '../../problems';
import { requireFactory } from '../../factories/service';
import { findWebhook } from '../repository';
import { findDeliveryRow, listDeliveryRows, type DeliveryListRow } from './repository';

export interface DeliveryView {
  delivery_id: string;
  webhook_uid: string;
  label: DeliveryListRow['label'];
  size: number;
  received_at: string;
  identity: string | null;
  identity_source: DeliveryListRow['identity_source'];
  /** Rejected (auth) only: why (webhooks/schemes/types.ts); null otherwise. */
  rejection_reason: string | null;
  duplicate_of?: string;
  payload?: unknown;
}

type Ctx = Pick<ServerContext, 'db'>;

/**
 * A stored payload nested deeper than this is answered as its stored text (RawJsonPayload), not parsed
 * and serialised again: JSON.stringify recurses and a body of 100,000 `[` overflows the stack.
 */
const PARSED_PAYLOAD_MAX_DEPTH = 1000;

/** The stored JSON text of a payload, to be written into the answer as it is. */
export class RawJsonPayload {
  constructor(readonly text: string) {}
}

export function toDeliveryView(row: DeliveryListRow): DeliveryView {
  const view: DeliveryView = {
    delivery_id: row.id,
    webhook_uid: row.webhook_id,
    label: row.label,
    size: Number(row.size),
    received_at: row.received_at,
    identity: row.identity,
    identity_source: row.identity_source,
    rejection_reason: row.rejection_reason,
  };
  if (row.duplicate_of) view.duplicate_of = row.duplicate_of;
  return view;
}

/** The webhook (deleted ones included: their log stays readable) of the team's factory, or 404. */
async function requireWebhookId(ctx: Ctx, teamId: string, factoryUid: string, webhookUid: string): Promise<string> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const webhook = await findWebhook(ctx.db, teamId, factory.id, webhookUid, { includeDeleted: true });
  if (!webhook) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
  return webhook.id;
}

export async function listWebhookDeliveries(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  webhookUid: string,
  query: { limit: number; cursor?: string },
): Promise<{ deliveries: DeliveryView[]; page_info: { has_next_page: boolean; next_cursor: string | null } }> {
  const webhookId = await requireWebhookId(ctx, teamId, factoryUid, webhookUid);
  const { items, page_info } = await keysetPage({
    ...query,
    sortKey: 'received_at',
    order: 'desc',
    fetch: (after, limit) => listDeliveryRows(ctx.db, teamId, webhookId, { limit, after }),
    keyOf: (row) => ({ value: row.received_at, id: row.id }),
    toItems: (rows) => rows.map(toDeliveryView),
  });
  return { deliveries: items, page_info };
}

export async function getWebhookDelivery(ctx: Ctx, teamId: string, factoryUid: string, webhookUid: string, deliveryId: string): Promise<DeliveryView> {
  const webhookId = await requireWebhookId(ctx, teamId, factoryUid, webhookUid);
  const row = await findDeliveryRow(ctx.db, teamId, webhookId, deliveryId);
  if (!row) throw resourceNotFound(`Delivery ${deliveryId} not found.`);
  const view = toDeliveryView(row);
  if (row.label === 'Accepted' && row.payload) {
    let text = toBuffer(row.payload).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    view.payload = textDepthExceeds(text, PARSED_PAYLOAD_MAX_DEPTH) ? new RawJsonPayload(text) : (JSON.parse(text) as unknown);
  }
  return view;
}
