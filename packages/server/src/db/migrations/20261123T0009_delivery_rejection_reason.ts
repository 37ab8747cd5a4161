/**
 * Why a `Rejected (auth)` delivery failed (`missing signature header`, `timestamp outside tolerance`, …;
 * webhooks/schemes/types.ts): the webhook's owner reads it in the delivery log, while the sender only ever
 * gets a bare 401. Null for every other label and for entries logged before this column.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('rejection_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('rejection_reason').execute();
}
