/**
 * Notification tables access (subscriptions, the outbox of messages, the attempts log). Every query takes
 * the team id, except the two service-wide ones at the end — the delivery workers' claim and retention —
 * which say so in their names.
 */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { compiledQuery } from '../db/compiled-query';
import { dialectOfDb, forUpdateSkipLocked } from '../db/dialect';
import { newestFirstPage } from '../db/keyset';
import type { Database, NotificationAttemptsTable, NotificationMessagesTable, NotificationSubscriptionsTable, Timestamp } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';
import { deleteRow, updateRow } from '../db/team-rows';

type Db = Kysely<Database>;
export type SubscriptionRow = Selectable<NotificationSubscriptionsTable>;
export type MessageRow = Selectable<NotificationMessagesTable>;
export type AttemptRow = Selectable<NotificationAttemptsTable>;
type Page = { limit: number; after?: KeysetAfter | undefined };

/** pg answers BIGINT columns as strings. */
const normalizeMessage = (row: MessageRow): MessageRow => ({
  ...row,
  order_key: Number(row.order_key),
  attempts: Number(row.attempts),
  window_attempts: Number(row.window_attempts),
});

// ---------------------------------------------------------------------------------------------------
// Subscriptions

export async function insertSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('notification_subscriptions', row).execute();
}

// Every delivery attempt reads its subscription: compiled once (db/compiled-query.ts).
const selectSubscription = compiledQuery((db, teamId: string, subscriptionId: string) =>
  teamScope(db, teamId).selectFrom('notification_subscriptions').selectAll().where('id', '=', subscriptionId),
);

export async function findSubscription(db: Db, teamId: string, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  return (await selectSubscription(db, teamId, subscriptionId)).rows[0];
}

export function listSubscriptionRows(db: Db, teamId: string, page: Page): Promise<SubscriptionRow[]> {
  return newestFirstPage(teamScope(db, teamId).selectFrom('notification_subscriptions').selectAll(), 'created_at', page).execute();
}

export async function countSubscriptions(db: Db, teamId: string): Promise<number> {
  const row = await teamScope(db, teamId)
    .selectFrom('notification_subscriptions')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function updateSubscriptionRow(
  db: Db,
  teamId: string,
  subscriptionId: string,
  changes: Updateable<NotificationSubscriptionsTable>,
): Promise<SubscriptionRow | undefined> {
  return updateRow(db, teamId, 'notification_subscriptions', subscriptionId, changes);
}

/** Deletes the subscription; its messages and attempts go with it (foreign keys ON DELETE CASCADE). */
export function deleteSubscriptionRow(db: Db, teamId: string, subscriptionId: string): Promise<boolean> {
  return deleteRow(db, teamId, 'notification_subscriptions', subscriptionId);
}

export type SubscriptionMatchRow = Pick<SubscriptionRow, 'id' | 'event_types' | 'factory_id' | 'automation_id'>;

// Run on every state change of every team: compiled once.
const selectEnabledSubscriptionFilters = compiledQuery((db, teamId: string) =>
  teamScope(db, teamId).selectFrom('notification_subscriptions').select(['id', 'event_types', 'factory_id', 'automation_id']).where('enabled', '=', 1),
);

/** What a state change matches against: the team's enabled subscriptions (none for most teams; at most the per-team limit). */
export async function findEnabledSubscriptionFilters(db: Db, teamId: string): Promise<SubscriptionMatchRow[]> {
  return (await selectEnabledSubscriptionFilters(db, teamId)).rows;
}

/** Success after failures: the subscription is healthy again (not a change of the resource: updated_at stays). */
export async function clearSubscriptionFailing(db: Db, teamId: string, subscriptionId: string): Promise<void> {
  await teamScope(db, teamId)
    .updateTable('notification_subscriptions')
    .set({ failing_since: null })
    .where('id', '=', subscriptionId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** A failed attempt: starts the failing period unless one is running; answers its start. */
export async function markSubscriptionFailing(db: Db, teamId: string, subscriptionId: string, now: Timestamp): Promise<Timestamp | undefined> {
  const row = await teamScope(db, teamId)
    .updateTable('notification_subscriptions')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
    .where('id', '=', subscriptionId)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? undefined;
}

/** Disables an enabled subscription whose failing period started at or before `failingSinceBy`. */
export async function disableFailingSubscription(db: Db, teamId: string, subscriptionId: string, failingSinceBy: Timestamp, now: Timestamp): Promise<boolean> {
  const result = await teamScope(db, teamId)
    .updateTable('notification_subscriptions')
    .set({ enabled: 0, disabled_reason: 'failing', disabled_at: now, updated_at: now })
    .where('id', '=', subscriptionId)
    .where('enabled', '=', 1)
    .where('failing_since', '<=', failingSinceBy)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------------------------------------------
// The outbox

const MESSAGE_COLUMNS = [
  'id',
  'team_id',
  'subscription_id',
  'event_id',
  'event_type',
  'run_id',
  'order_key',
  'payload',
  'status',
  'attempts',
  'window_attempts',
  'next_attempt_at',
  'window_start',
  'lease_owner',
  'lease_expires_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof MessageRow>;

// Written in the transaction of every state change a subscription matches: compiled once per row count.
const insertMessagesStatement = compiledQuery((db, teamId: string, values: ReadonlyArray<string | number | null>) =>
  teamScope(db, teamId).insertInto(
    'notification_messages',
    Array.from({ length: values.length / MESSAGE_COLUMNS.length }, (_, row) =>
      Object.fromEntries(MESSAGE_COLUMNS.map((column, j) => [column, values[row * MESSAGE_COLUMNS.length + j]])),
    ) as unknown as MessageRow[],
  ),
);

/** The messages of one state change of a run of `teamId`. */
export async function insertMessages(db: Db, teamId: string, rows: readonly MessageRow[]): Promise<void> {
  if (rows.length > 0)
    await insertMessagesStatement(
      db,
      teamId,
      rows.flatMap((row) => MESSAGE_COLUMNS.map((column) => row[column])),
    );
}

export async function findMessage(db: Db, teamId: string, subscriptionId: string, eventId: string): Promise<MessageRow | undefined> {
  const row = await teamScope(db, teamId)
    .selectFrom('notification_messages')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row && normalizeMessage(row);
}

/** Replay: the message is pending again, due `now`, with a new retry window and backoff (an attempt in flight keeps its lease). */
export async function requeueMessage(db: Db, teamId: string, messageId: string, now: Timestamp): Promise<boolean> {
  const result = await teamScope(db, teamId)
    .updateTable('notification_messages')
    .set({ status: 'pending', next_attempt_at: now, window_start: now, window_attempts: 0, updated_at: now })
    .where('id', '=', messageId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const updateFinishedAttempt = compiledQuery(
  (db, status: string, nextAttemptAt: string | null, updatedAt: string, teamId: string, messageId: string, leaseOwner: string, attempts: number) =>
    teamScope(db, teamId)
      .updateTable('notification_messages')
      .set({ status: status as MessageRow['status'], next_attempt_at: nextAttemptAt, updated_at: updatedAt, lease_owner: null, lease_expires_at: null })
      .where('id', '=', messageId)
      .where('lease_owner', '=', leaseOwner)
      .where('attempts', '=', attempts),
);

/**
 * The outcome of the attempt a worker claimed: applies `changes` (and clears the lease) only while this
 * worker still holds that attempt (same lease owner, same attempt count). False when it lost it.
 */
export async function finishMessageAttempt(
  db: Db,
  message: Pick<MessageRow, 'team_id' | 'id' | 'attempts'>,
  leaseOwner: string,
  changes: { status: MessageRow['status']; next_attempt_at: string | null; updated_at: string },
): Promise<boolean> {
  const result = await updateFinishedAttempt(
    db,
    changes.status,
    changes.next_attempt_at,
    changes.updated_at,
    message.team_id,
    message.id,
    leaseOwner,
    message.attempts,
  );
  return Number(result.numAffectedRows ?? 0) > 0;
}

const claimNextOfRunStatement = compiledQuery(
  (db, workerId: string, leaseExpiresAt: string, teamId: string, subscriptionId: string, runId: string, now: string) =>
    teamScope(db, teamId)
      .updateTable('notification_messages')
      .set((eb) => ({
        lease_owner: workerId,
        lease_expires_at: leaseExpiresAt,
        attempts: eb('attempts', '+', 1),
        window_attempts: eb('window_attempts', '+', 1),
      }))
      .where('id', '=', (eb) =>
        teamScope(db, teamId)
          .subqueryFrom(eb, 'notification_messages as m')
          .select('m.id')
          .where('m.subscription_id', '=', subscriptionId)
          .where('m.run_id', '=', runId)
          .where('m.status', '=', 'pending')
          .orderBy('m.order_key')
          .limit(1),
      )
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', now)]))
      .returningAll(),
);

/**
 * Inside the transaction that finished a message: claims the run's next pending message to the same
 * subscription (the earliest, which only waited for that one) if it is due and not leased, for `workerId`.
 */
export async function claimNextMessageOfRun(
  db: Db,
  finished: Pick<MessageRow, 'team_id' | 'subscription_id' | 'run_id'>,
  claim: { workerId: string; now: Timestamp; leaseExpiresAt: Timestamp },
): Promise<MessageRow | undefined> {
  const { rows } = await claimNextOfRunStatement(
    db,
    claim.workerId,
    claim.leaseExpiresAt,
    finished.team_id,
    finished.subscription_id,
    finished.run_id,
    claim.now,
  );
  return rows[0] && normalizeMessage(rows[0]);
}

// ---------------------------------------------------------------------------------------------------
// The attempts log

const ATTEMPT_COLUMNS = [
  'id',
  'team_id',
  'subscription_id',
  'event_id',
  'event_type',
  'run_id',
  'attempt',
  'attempted_at',
  'outcome',
  'status_code',
  'latency_ms',
  'error',
  'response_excerpt',
  'next_attempt_at',
] as const satisfies ReadonlyArray<keyof AttemptRow>;

const insertAttemptStatement = compiledQuery((db, teamId: string, values: ReadonlyArray<string | number | null>) =>
  teamScope(db, teamId).insertInto(
    'notification_attempts',
    Object.fromEntries(ATTEMPT_COLUMNS.map((column, i) => [column, values[i]])) as unknown as AttemptRow,
  ),
);

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await insertAttemptStatement(
    db,
    row.team_id,
    ATTEMPT_COLUMNS.map((column) => row[column]),
  );
}

export function listAttemptRows(
  db: Db,
  teamId: string,
  subscriptionId: string,
  filters: { eventId?: string | undefined; runId?: string | undefined },
  page: Page,
): Promise<AttemptRow[]> {
  let query = teamScope(db, teamId).selectFrom('notification_attempts').selectAll().where('subscription_id', '=', subscriptionId);
  if (filters.eventId !== undefined) query = query.where('event_id', '=', filters.eventId);
  if (filters.runId !== undefined) query = query.where('run_id', '=', filters.runId);
  return newestFirstPage(query, 'attempted_at', page).execute();
}

// ---------------------------------------------------------------------------------------------------
// SERVICE-WIDE (background jobs act for every team)

/**
 * SERVICE-WIDE: claims up to `limit` due messages of any team for `workerId` — each the earliest pending
 * message of its subscription and run (delivery order), not leased or with an expired lease — taking a
 * lease until `leaseExpiresAt` and counting the attempt. `WHERE id IN (SELECT … [FOR UPDATE SKIP LOCKED])`
 * with the conditions repeated outside: SQLite's single writer makes the conditional UPDATE atomic; on
 * PostgreSQL SKIP LOCKED lets concurrent claimers pass over each other's rows and the repeated guard makes a
 * lost race a miss, so one attempt is never claimed twice.
 */
export async function claimDueMessagesServiceWide(
  db: Db,
  claim: { workerId: string; now: Timestamp; leaseExpiresAt: Timestamp; limit: number },
): Promise<MessageRow[]> {
  const { rows } = await claimDueStatementServiceWide(db, claim.workerId, claim.leaseExpiresAt, claim.now, claim.limit);
  return rows.map(normalizeMessage);
}

// Run by every delivery worker for every batch: compiled once per dialect.
const claimDueStatementServiceWide = compiledQuery((db, workerId: string, leaseExpiresAt: string, now: string, limit: number) =>
  db
    .updateTable('notification_messages')
    .set((eb) => ({
      lease_owner: workerId,
      lease_expires_at: leaseExpiresAt,
      attempts: eb('attempts', '+', 1),
      window_attempts: eb('window_attempts', '+', 1),
    }))
    .where('id', 'in', (eb) =>
      forUpdateSkipLocked(
        eb
          .selectFrom('notification_messages as m')
          .select('m.id')
          .where('m.status', '=', 'pending')
          .where('m.next_attempt_at', '<=', now)
          .where((w) => w.or([w('m.lease_expires_at', 'is', null), w('m.lease_expires_at', '<=', now)]))
          .where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('notification_messages as earlier')
                  .select('earlier.id')
                  .whereRef('earlier.subscription_id', '=', 'm.subscription_id')
                  .whereRef('earlier.run_id', '=', 'm.run_id')
                  .where('earlier.status', '=', 'pending')
                  .whereRef('earlier.order_key', '<', 'm.order_key'),
              ),
            ),
          )
          .orderBy('m.next_attempt_at')
          .limit(limit),
        dialectOfDb(db),
      ),
    )
    .where('status', '=', 'pending')
    .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', now)]))
    .returningAll(),
);

/**
 * SERVICE-WIDE retention: deletes attempts older than `cutoff` and finished (delivered or given-up) messages
 * unchanged since, in batches of `batchSize` (a long backlog never holds SQLite for long). Pending messages stay.
 */
export async function pruneNotificationsServiceWide(
  db: Db,
  cutoff: Timestamp,
  batchSize: number,
  between: () => Promise<void>,
): Promise<{ attempts: number; messages: number }> {
  let attempts = 0;
  let messages = 0;
  for (;;) {
    const batch = await db
      .deleteFrom('notification_attempts')
      .where('id', 'in', (eb) =>
        eb.selectFrom('notification_attempts').select('id').where('attempted_at', '<', cutoff).orderBy('attempted_at').limit(batchSize),
      )
      .executeTakeFirst();
    const deleted = Number(batch.numDeletedRows);
    attempts += deleted;
    if (deleted < batchSize) break;
    await between();
  }
  for (;;) {
    const batch = await db
      .deleteFrom('notification_messages')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notification_messages')
          .select('id')
          .where('updated_at', '<', cutoff)
          .where('status', '!=', 'pending')
          .orderBy('updated_at')
          .limit(batchSize),
      )
      .executeTakeFirst();
    const deleted = Number(batch.numDeletedRows);
    messages += deleted;
    if (deleted < batchSize) break;
    await between();
  }
  return { attempts, messages };
}
