/**
 * The delivery log, the dedup gate and run start (steps 8–9 of the pipeline).
 *
 * Every delivery that reached a known, enabled webhook and was not rate limited gets exactly one row,
 * written before its answer. Rejected and Duplicate rows hold metadata only (no body bytes).
 *
 * Dedup: the Accepted row carries `accepted_identity`, and the unique index on (webhook_id,
 * accepted_identity) is the gate. The Accepted insert is `INSERT … ON CONFLICT (webhook_id,
 * accepted_identity) DO NOTHING RETURNING id`: when two identical deliveries race (on one instance or
 * several), the database lets exactly one insert land — PostgreSQL makes the second wait for the first's
 * commit — and the other finds no row returned, reads the winner's id and writes a Duplicate row naming it.
 * No error aborts the transaction, so the delivery-rate slot taken in the same transaction stays taken.
 * Automations are evaluated and runs queued in the SAME transaction as the Accepted row, so a delivery
 * never starts runs without its log entry or vice versa.
 */
import type { Kysely } from 'kysely';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import type { Database, WebhookDeliveriesTable } from '../db/tables';
import { startRunsForDelivery, type StartedRun } from '../automations/start-runs';
import { compiledQuery } from '../db/compiled-query';
import type { RejectionReason } from '../webhooks/schemes';
import type { DeliveryIdentity } from './identify';
import type { ResolvedWebhook } from './resolve';

export type RejectedLabel = Extract<WebhookDeliveriesTable['label'], `Rejected${string}`>;

export interface DeliveryFacts {
  webhook: ResolvedWebhook;
  /** Body size in bytes (for too-large bodies: declared or received before reading stopped). */
  size: number;
  receivedAt: Date;
}

export type LoggedDelivery =
  | { label: 'Accepted'; deliveryId: string; runs: StartedRun[] }
  | { label: 'Duplicate'; deliveryId: string; duplicateOf: string };

/**
 * Writes a Rejected entry (metadata only) and returns its delivery id. `reason`: why authentication failed,
 * for `Rejected (auth)` (the label of the others says it all).
 */
export async function logRejectedDelivery(
  db: Kysely<Database>,
  facts: DeliveryFacts,
  label: RejectedLabel,
  reason: RejectionReason | null = null,
): Promise<string> {
  const id = newId('dlv', facts.receivedAt);
  await insertDelivery(db, facts, id, label, null, null, null, reason);
  return id;
}

/**
 * Dedup gate + log + run start, inside the caller's transaction `trx`: an Accepted row with its runs, or a
 * Duplicate row naming the accepted one.
 */
export async function logAcceptedOrDuplicate(
  trx: Kysely<Database>,
  ctx: ServerContext,
  facts: DeliveryFacts,
  identity: DeliveryIdentity,
  rawBody: Buffer,
  payload: unknown,
): Promise<LoggedDelivery> {
  // A second round only happens if the accepted entry vanished (retention) between the insert and the read.
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = newId('dlv', facts.receivedAt);
    if (await insertDelivery(trx, facts, id, 'Accepted', identity, null, rawBody)) {
      const runs = await startRunsForDelivery(trx, ctx, {
        teamId: facts.webhook.teamId,
        factoryId: facts.webhook.factoryId,
        webhookId: facts.webhook.id,
        webhookName: facts.webhook.name,
        deliveryId: id,
        rawBody,
        payload,
      });
      return { label: 'Accepted', deliveryId: id, runs };
    }
    const original = await findAcceptedByIdentity(trx, facts.webhook, identity.identity);
    if (original) {
      await insertDelivery(trx, facts, id, 'Duplicate', identity, original, null);
      return { label: 'Duplicate', deliveryId: id, duplicateOf: original };
    }
  }
  throw new Error('delivery identity kept colliding with an accepted entry that cannot be found');
}

async function findAcceptedByIdentity(db: Kysely<Database>, webhook: ResolvedWebhook, identity: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('team_id', '=', webhook.teamId)
    .where('webhook_id', '=', webhook.id)
    .where('accepted_identity', '=', identity)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Every log row is written by this one statement (compiled once: it runs for every delivery). Only an
 * Accepted row sets accepted_identity (the dedup guard) and keeps the body; for it, false = the identity was
 * already accepted (nothing written). Other labels have no accepted_identity and always insert.
 */
async function insertDelivery(
  db: Kysely<Database>,
  facts: DeliveryFacts,
  id: string,
  label: WebhookDeliveriesTable['label'],
  identity: DeliveryIdentity | null,
  duplicateOf: string | null,
  payload: Buffer | null,
  rejectionReason: string | null = null,
): Promise<boolean> {
  const { webhook } = facts;
  const accepted = label === 'Accepted';
  const { rows } = await insertDeliveryRow(
    db,
    id,
    webhook.teamId,
    webhook.factoryId,
    webhook.id,
    label,
    facts.size,
    toTimestamp(facts.receivedAt),
    identity?.identity ?? null,
    identity?.source ?? null,
    accepted ? (identity?.identity ?? null) : null,
    duplicateOf,
    accepted ? payload : null,
    rejectionReason,
  );
  return rows.length > 0;
}

const insertDeliveryRow = compiledQuery(
  (
    db,
    id: string,
    teamId: string,
    factoryId: string,
    webhookId: string,
    label: string,
    size: number,
    receivedAt: string,
    identity: string | null,
    identitySource: string | null,
    acceptedIdentity: string | null,
    duplicateOf: string | null,
    payload: Buffer | null,
    rejectionReason: string | null,
  ) =>
    db
      .insertInto('webhook_deliveries')
      .values({
        id,
        team_id: teamId,
        factory_id: factoryId,
        webhook_id: webhookId,
        label: label as WebhookDeliveriesTable['label'],
        size,
        received_at: receivedAt,
        identity,
        identity_source: identitySource as WebhookDeliveriesTable['identity_source'],
        accepted_identity: acceptedIdentity,
        duplicate_of: duplicateOf,
        payload,
        rejection_reason: rejectionReason,
      })
      .onConflict((oc) => oc.columns(['webhook_id', 'accepted_identity']).doNothing())
      .returning('id'),
);
