/**
 * Step 2 — resolve: the webhook a delivery is addressed to, and (same round trip) its limit counters.
 *
 * SERVICE-WIDE QUERY (one of those named in docs/wire.md §Tenancy): the sender is not a tenant and
 * carries no team, so the lookup is by webhook uid alone; the team and factory come from the row found.
 * Unknown, disabled and deleted webhooks all resolve to nothing (→ 404), so a sender cannot tell them apart.
 *
 * The counters of the webhook's two limits (rate-limit.ts) come with it through a LEFT JOIN, so the
 * failed-auth budget check and the delivery-rate check need no reads of their own: one query answers
 * "which webhook, and how full are its limits" (one row per counter row, or one row with no counter).
 */
import type { Kysely } from 'kysely';
import type { Database, WebhooksTable } from '../db/tables';
import { compiledQuery } from '../db/compiled-query';
import { counterSnapshot, type CounterSnapshot, type WindowPosition } from './rate-limit';

export interface ResolvedWebhook {
  id: string;
  teamId: string;
  factoryId: string;
  name: string;
  authMode: WebhooksTable['auth_mode'];
  signatureScheme: string | null;
  /** Encrypted snapshot of the credential; null = provider secret not supplied yet. */
  encryptedSecret: string | null;
  deliveryIdHeader: string | null;
}

/** The lookup, compiled once (compiled-query.ts): it runs for every delivery. */
const selectWebhookWithCountersServiceWide = compiledQuery((db, webhookId: string, keys: readonly string[], windows: readonly number[]) =>
  db
    .selectFrom('webhooks as w')
    .leftJoin('rate_limit_counters as c', (join) => join.on('c.key', 'in', keys).on('c.window_start', 'in', windows))
    .select([
      'w.id',
      'w.team_id',
      'w.factory_id',
      'w.name',
      'w.auth_mode',
      'w.signature_scheme',
      'w.secret',
      'w.delivery_id_header',
      'c.key',
      'c.window_start',
      'c.count',
    ])
    .where('w.id', '=', webhookId)
    .where('w.enabled', '=', 1)
    .where('w.deleted_at', 'is', null),
);

export async function resolveWebhook(
  db: Kysely<Database>,
  webhookId: string,
  counters: { keys: [string, string]; position: WindowPosition },
): Promise<{ webhook: ResolvedWebhook; counters: CounterSnapshot } | undefined> {
  const { keys, position } = counters;
  const { rows } = await selectWebhookWithCountersServiceWide(db, webhookId, keys, [position.previousStart, position.currentStart]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    webhook: {
      id: row.id,
      teamId: row.team_id,
      factoryId: row.factory_id,
      name: row.name,
      authMode: row.auth_mode,
      signatureScheme: row.signature_scheme,
      encryptedSecret: row.secret,
      deliveryIdHeader: row.delivery_id_header,
    },
    counters: counterSnapshot(position, keys, rows),
  };
}
