/**
 * Factories, team secrets, webhooks, the webhook delivery log and the shared rate-limit counters
 * (tables.ts: FactoriesTable, TeamSecretsTable, WebhooksTable, WebhookDeliveriesTable, RateLimitCountersTable).
 */
import { sql, type Kysely } from 'kysely';
import { binaryType, dialectOfDb } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('factories')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('definition_source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Lists page by (created_at, id) within a team.
  await db.schema.createIndex('factories_team_created_idx').on('factories').columns(['team_id', 'created_at', 'id']).execute();
  // Factory names are unique within the team (contract: createFactory).
  await db.schema.createIndex('factories_team_name_uq').on('factories').columns(['team_id', 'name']).unique().execute();

  await db.schema
    .createTable('team_secrets')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_secrets_pk', ['team_id', 'name'])
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('factory_id', 'text', (c) => c.notNull().references('factories.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('auth_mode', 'text', (c) => c.notNull())
    .addColumn('signature_scheme', 'text')
    .addColumn('secret_name', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('delivery_id_header', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('definition_file', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  // Lists page by (created_at, id) within a factory; the 20-per-factory count uses the same prefix.
  await db.schema.createIndex('webhooks_factory_created_idx').on('webhooks').columns(['factory_id', 'created_at', 'id']).execute();
  // Names are unique among a factory's live webhooks; a deleted webhook's name may be reused (partial index:
  // SQLite ≥ 3.8 and PostgreSQL).
  await db.schema
    .createIndex('webhooks_factory_name_uq')
    .on('webhooks')
    .columns(['factory_id', 'name'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  // Team secrets that webhooks name (deleteSecret refuses those; putSecret checks url_token ones).
  await db.schema.createIndex('webhooks_team_secret_name_idx').on('webhooks').columns(['team_id', 'secret_name']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('factory_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('identity', 'text')
    .addColumn('identity_source', 'text')
    .addColumn('accepted_identity', 'text')
    .addColumn('duplicate_of', 'text')
    .addColumn('payload', binaryType(dialectOfDb(db)))
    .execute();
  // THE dedup guard: one Accepted row per identity and webhook. Only Accepted rows set accepted_identity;
  // NULLs never collide in a unique index on either SQLite or PostgreSQL, so other labels are unconstrained.
  await db.schema
    .createIndex('webhook_deliveries_accepted_identity_uq')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'accepted_identity'])
    .unique()
    .execute();
  // Recent deliveries, newest first, keyset pages.
  await db.schema.createIndex('webhook_deliveries_webhook_received_idx').on('webhook_deliveries').columns(['webhook_id', 'received_at', 'id']).execute();
  // Retention scans by age.
  await db.schema.createIndex('webhook_deliveries_received_idx').on('webhook_deliveries').column('received_at').execute();

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['key', 'window_start'])
    .execute();
  // Retention drops expired windows.
  await db.schema.createIndex('rate_limit_counters_window_idx').on('rate_limit_counters').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rate_limit_counters', 'webhook_deliveries', 'webhooks', 'team_secrets', 'factories']) {
    await db.schema.dropTable(table).execute();
  }
}
