/**
 * Replayed signed deliveries (docs/decisions.md §Replayed signed deliveries and failed-attempt budgets): an
 * Accepted delivery of a scheme whose signature binds the body but not the delivery id also remembers the
 * digest of that body, `accepted_body_digest`, and the unique index on (webhook_id, accepted_body_digest) is
 * the second dedup gate next to (webhook_id, accepted_identity). Only those Accepted rows set it; NULLs
 * never collide.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('accepted_body_digest', 'text').execute();
  await db.schema
    .createIndex('webhook_deliveries_accepted_body_digest_uq')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'accepted_body_digest'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_accepted_body_digest_uq').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('accepted_body_digest').execute();
}
