/**
 * Outbound notifications of run events (tables.ts: NotificationSubscriptionsTable, NotificationMessagesTable,
 * NotificationAttemptsTable; notifications/ and docs/decisions.md §Outbound notifications).
 *
 * - `notification_subscriptions`: a team's endpoints, their event types and filters, the encrypted signing
 *   secret (and the previous one during a rotation's overlap) and their health.
 * - `notification_messages`: the outbox — one row per event and subscription, written in the transaction of
 *   the state change; a row is `pending` until delivered (`succeeded`) or given up (`failed`) and is kept
 *   afterwards for replay until retention.
 * - `notification_attempts`: the attempts log.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('factory_id', 'text')
    .addColumn('automation_id', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Lists page by (created_at, id) within a team; a state change reads the team's subscriptions through it.
  await db.schema
    .createIndex('notification_subscriptions_team_created_idx')
    .on('notification_subscriptions')
    .columns(['team_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('notification_messages')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('notification_subscriptions.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('order_key', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('window_attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One row per event and subscription: replay finds it, and nothing can record an event twice.
  await db.schema
    .createIndex('notification_messages_subscription_event_uq')
    .on('notification_messages')
    .columns(['subscription_id', 'event_id'])
    .unique()
    .execute();
  // The claim walks the due pending rows only (partial: delivered rows stay for replay until retention).
  await db.schema
    .createIndex('notification_messages_due_idx')
    .on('notification_messages')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // Per subscription and run, a message waits while an earlier pending one exists (delivery order).
  await db.schema
    .createIndex('notification_messages_order_idx')
    .on('notification_messages')
    .columns(['subscription_id', 'run_id', 'order_key'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // Retention of finished rows, oldest first.
  await db.schema.createIndex('notification_messages_updated_idx').on('notification_messages').column('updated_at').execute();

  await db.schema
    .createTable('notification_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('notification_subscriptions.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('next_attempt_at', 'text')
    .execute();
  // The log pages newest first per subscription; retention deletes by attempted_at.
  await db.schema
    .createIndex('notification_attempts_subscription_idx')
    .on('notification_attempts')
    .columns(['subscription_id', 'attempted_at', 'id'])
    .execute();
  await db.schema.createIndex('notification_attempts_attempted_idx').on('notification_attempts').column('attempted_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['notification_attempts', 'notification_messages', 'notification_subscriptions']) {
    await db.schema.dropTable(table).execute();
  }
}
