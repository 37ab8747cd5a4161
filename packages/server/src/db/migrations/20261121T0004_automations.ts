/**
 * Automations and the webhook → automation index the ingress reads on every delivery
 * (tables.ts: AutomationsTable, AutomationWebhooksTable).
 *
 * automation_webhooks.webhook_id has no foreign key on purpose: an automation may name a webhook UID the
 * factory does not (or no longer) have — it stays visible with that webhook `unknown`/`deleted` and never
 * fires (contract: createAutomation). Webhooks are soft-deleted, so the rows outlive them.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('automations')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('factory_id', 'text', (c) => c.notNull().references('factories.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('config', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('definition_file', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Lists page by (created_at, id) within a factory, newest first.
  await db.schema.createIndex('automations_factory_created_idx').on('automations').columns(['factory_id', 'created_at', 'id']).execute();
  // Names are unique within a factory (contract: createAutomation).
  await db.schema.createIndex('automations_factory_name_uq').on('automations').columns(['factory_id', 'name']).unique().execute();
  // Definition apply finds an automation by its file; one automation per file.
  await db.schema
    .createIndex('automations_factory_file_uq')
    .on('automations')
    .columns(['factory_id', 'definition_file'])
    .unique()
    .where(sql.ref('definition_file'), 'is not', null)
    .execute();

  await db.schema
    .createTable('automation_webhooks')
    .addColumn('automation_id', 'text', (c) => c.notNull().references('automations.id').onDelete('cascade'))
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_webhooks_pk', ['automation_id', 'webhook_id'])
    .execute();
  // THE candidate lookup of every accepted delivery: automations selecting this webhook.
  await db.schema.createIndex('automation_webhooks_webhook_idx').on('automation_webhooks').columns(['webhook_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('automation_webhooks').execute();
  await db.schema.dropTable('automations').execute();
}
