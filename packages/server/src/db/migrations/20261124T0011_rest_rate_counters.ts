/**
 * The per-API-key REST request budget, counted in the database so every process on one database
 * enforces one budget (http/rate-limit.ts): one row per key and fixed window. A table of its own, not the
 * ingress's rate_limit_counters: the two have their own windows and their own retention.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rest_rate_counters')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rest_rate_counters_pk', ['key_id', 'window_start'])
    .execute();
  // Retention drops past windows.
  await db.schema.createIndex('rest_rate_counters_window_idx').on('rest_rate_counters').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rest_rate_counters').execute();
}
