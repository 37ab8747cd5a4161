/**
 * The audit log (docs/decisions.md §The audit log): one row per change an admin made, written in the
 * change's own transaction (audit/trail.ts). No foreign key to `api_keys`: a revoked key's events stay,
 * named by the key's id and the name it had. Read newest first per team, by resource or by actor;
 * pruned service-wide by `occurred_at` (audit/retention.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('actor_key_id', 'text', (c) => c.notNull())
    .addColumn('actor_key_name', 'text')
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('changed_fields', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_team_occurred_idx').on('audit_events').columns(['team_id', 'occurred_at', 'id']).execute();
  await db.schema
    .createIndex('audit_events_team_resource_idx')
    .on('audit_events')
    .columns(['team_id', 'resource_type', 'resource_id', 'occurred_at', 'id'])
    .execute();
  await db.schema.createIndex('audit_events_team_actor_idx').on('audit_events').columns(['team_id', 'actor_key_id', 'occurred_at', 'id']).execute();
  await db.schema.createIndex('audit_events_occurred_idx').on('audit_events').column('occurred_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
