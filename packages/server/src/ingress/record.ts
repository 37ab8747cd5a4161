/**
 * The delivery log, the dedup gate and run start (steps 8–9 of the pipeline).
 *
 * Every delivery that reached a known, enabled webhook and was not rate limited gets exactly one row,
 * written before its answer. Rejected and Duplicate rows hold metadata only (no body bytes).
 *
 * Dedup: the Accepted row carries `accepted_identity` (and, for a scheme signing the body but not the id,
 * `accepted_body_digest`: identify.ts), and the unique indexes on (webhook_id, accepted_identity) and
 * (webhook_id, accepted_body_digest) are the gates. The Accepted insert is `INSERT … ON CONFLICT DO NOTHING
 * RETURNING id` (no conflict target: either index stops it): when two identical deliveries race (on one
 * instance or several), the database lets exactly one insert land — PostgreSQL makes the second wait for the
 * first's commit — and the other finds no row returned, reads the winner's id and writes a Duplicate row
 * naming it.
 * No error aborts the transaction, so the delivery-rate slot taken in the same transaction stays taken.
 * Deliveries committed together (group-commit.ts) share one multi-row insert: its rows land in order, so of
 * two identical deliveries in it the first is Accepted and the second finds it.
 * Automations are evaluated and runs queued in the SAME transaction as the Accepted row, so a delivery
 * never starts runs without its log entry or vice versa.
 */
import type { Kysely } from 'kysely';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import type { Database, WebhookDeliveriesTable } from '../db/tables';
import { listEnabledCandidates, type CandidateAutomation } from '../automations/repository';
import { startRunsForDelivery, type StartedRun } from '../automations/start-runs';
import { compiledQuery } from '../db/compiled-query';
import type { RejectionReason } from '../webhooks/schemes';
import type { DeliveryIdentity } from './identify';
import type { ResolvedWebhook } from './resolve';
import type { Context } from '@opentelemetry/api';
import { activeTraceContext, withTraceContext } from '../telemetry/spans';
import { teamScope } from '../db/scoped';

export type RejectedLabel = Extract<WebhookDeliveriesTable['label'], `Rejected${string}`>;

export interface DeliveryFacts {
  webhook: ResolvedWebhook;
  /** Body size in bytes (for too-large bodies: declared or received before reading stopped). */
  size: number;
  receivedAt: Date;
}

/** An authenticated delivery whose body is JSON, ready for the dedup gate. */
export interface IdentifiedDelivery {
  facts: DeliveryFacts;
  identity: DeliveryIdentity;
  /** The second dedup key (identify.ts signedBodyDigest); null when the identity alone decides. */
  bodyDigest: string | null;
  rawBody: Buffer;
  payload: unknown;
  /** The delivery's span: the runs it starts continue its trace, though they commit in a shared batch. */
  traceContext?: Context;
}

export type LoggedDelivery = { label: 'Accepted'; deliveryId: string; runs: StartedRun[] } | { label: 'Duplicate'; deliveryId: string; duplicateOf: string };

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
  await insertDeliveryRows(db, [deliveryRow(facts, id, label, { rejectionReason: reason })]);
  return id;
}

/**
 * Dedup gate + log + run start for deliveries committed together, inside the caller's transaction `trx`,
 * as if written one after another: per delivery an Accepted row with its runs, or a Duplicate row naming
 * the accepted one. One insert logs them all; each webhook's automations are read once.
 */
export async function logAcceptedOrDuplicates(trx: Kysely<Database>, ctx: ServerContext, deliveries: readonly IdentifiedDelivery[]): Promise<LoggedDelivery[]> {
  const logged: LoggedDelivery[] = [];
  const candidatesByWebhook = new Map<string, CandidateAutomation[]>();
  const candidatesOf = async ({ teamId, factoryId, id }: ResolvedWebhook) => {
    let candidates = candidatesByWebhook.get(id);
    if (!candidates) candidatesByWebhook.set(id, (candidates = await listEnabledCandidates(trx, teamId, factoryId, id)));
    return candidates;
  };
  let pending = deliveries.map((_, i) => i);
  // A second round only happens for a delivery whose accepted entry vanished (retention) between the
  // insert and the read.
  for (let attempt = 0; attempt < 3 && pending.length > 0; attempt++) {
    const ids = pending.map((i) => newId('dlv', deliveries[i]!.facts.receivedAt));
    const inserted = await insertDeliveryRows(
      trx,
      pending.map((i, j) => {
        const { facts, identity, bodyDigest, rawBody } = deliveries[i]!;
        return deliveryRow(facts, ids[j]!, 'Accepted', { identity, bodyDigest, payload: rawBody });
      }),
    );
    const notFound: number[] = [];
    for (const [j, i] of pending.entries()) {
      const { facts, identity, bodyDigest, rawBody, payload, traceContext } = deliveries[i]!;
      const { webhook } = facts;
      const id = ids[j]!;
      if (inserted.has(id)) {
        const candidates = await candidatesOf(webhook);
        const delivery = {
          teamId: webhook.teamId,
          factoryId: webhook.factoryId,
          webhookId: webhook.id,
          webhookName: webhook.name,
          deliveryId: id,
          rawBody,
          payload,
        };
        const runs = await withTraceContext(traceContext ?? activeTraceContext(), () => startRunsForDelivery(trx, ctx, delivery, candidates));
        logged[i] = { label: 'Accepted', deliveryId: id, runs };
        continue;
      }
      const original = await findAccepted(trx, webhook, identity.identity, bodyDigest);
      if (!original) {
        notFound.push(i);
        continue;
      }
      await insertDeliveryRows(trx, [deliveryRow(facts, id, 'Duplicate', { identity, duplicateOf: original })]);
      logged[i] = { label: 'Duplicate', deliveryId: id, duplicateOf: original };
    }
    pending = notFound;
  }
  if (pending.length > 0) throw new Error('delivery identity kept colliding with an accepted entry that cannot be found');
  return logged;
}

/** The Accepted entry a delivery duplicates: the one with its identity, else the one with its body digest. */
async function findAccepted(db: Kysely<Database>, webhook: ResolvedWebhook, identity: string, bodyDigest: string | null): Promise<string | undefined> {
  const rows = await teamScope(db, webhook.teamId)
    .selectFrom('webhook_deliveries')
    .select(['id', 'accepted_identity'])
    .where('webhook_id', '=', webhook.id)
    .where((eb) => eb.or([eb('accepted_identity', '=', identity), ...(bodyDigest === null ? [] : [eb('accepted_body_digest', '=', bodyDigest)])]))
    .execute();
  return (rows.find((row) => row.accepted_identity === identity) ?? rows[0])?.id;
}

/**
 * A log row. Only an Accepted row sets accepted_identity and accepted_body_digest (the dedup guards) and
 * keeps the body; other labels have neither and always insert.
 */
function deliveryRow(
  facts: DeliveryFacts,
  id: string,
  label: WebhookDeliveriesTable['label'],
  details: { identity?: DeliveryIdentity; bodyDigest?: string | null; duplicateOf?: string; payload?: Buffer; rejectionReason?: string | null },
): WebhookDeliveriesTable {
  const { webhook } = facts;
  const accepted = label === 'Accepted';
  return {
    id,
    team_id: webhook.teamId,
    factory_id: webhook.factoryId,
    webhook_id: webhook.id,
    label,
    size: facts.size,
    received_at: toTimestamp(facts.receivedAt),
    identity: details.identity?.identity ?? null,
    identity_source: details.identity?.source ?? null,
    accepted_identity: accepted ? (details.identity?.identity ?? null) : null,
    accepted_body_digest: accepted ? (details.bodyDigest ?? null) : null,
    duplicate_of: details.duplicateOf ?? null,
    payload: accepted ? (details.payload ?? null) : null,
    rejection_reason: details.rejectionReason ?? null,
  };
}

/** The order of a log row's values in the insert below. */
const DELIVERY_COLUMNS = [
  'id',
  'team_id',
  'factory_id',
  'webhook_id',
  'label',
  'size',
  'received_at',
  'identity',
  'identity_source',
  'accepted_identity',
  'accepted_body_digest',
  'duplicate_of',
  'payload',
  'rejection_reason',
] as const satisfies ReadonlyArray<keyof WebhookDeliveriesTable>;

/**
 * Every log row is written by this one statement, one or many rows at once. Returns the ids of the rows
 * written: an Accepted row whose identity or body digest was already accepted is not (ON CONFLICT DO NOTHING).
 */
async function insertDeliveryRows(db: Kysely<Database>, rows: readonly WebhookDeliveriesTable[]): Promise<Set<string>> {
  const { rows: written } = await insertDeliveryRowsServiceWide(
    db,
    rows.flatMap((row) => DELIVERY_COLUMNS.map((column) => row[column])),
  );
  return new Set(written.map((row) => row.id));
}

/**
 * Compiled once per row count (compiled-query.ts): it runs for every batch of deliveries. Service-wide: a
 * group commit's batch holds the deliveries of several teams, each row carrying its own team_id.
 */
const insertDeliveryRowsServiceWide = compiledQuery((db, values: ReadonlyArray<string | number | Buffer | null>) =>
  db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: values.length / DELIVERY_COLUMNS.length }, (_, row) =>
        Object.fromEntries(DELIVERY_COLUMNS.map((column, j) => [column, values[row * DELIVERY_COLUMNS.length + j]])),
      ) as unknown as WebhookDeliveriesTable[],
    )
    .onConflict((oc) => oc.doNothing())
    .returning('id'),
);
