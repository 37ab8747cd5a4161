/** Runs and their event log, steps, follow-ups and attachments (tables.ts: Runs*, RunEvents*, …). */
import type { Kysely } from 'kysely';
import { binaryType, dialectOfDb } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('creator_type', 'text', (c) => c.notNull())
    .addColumn('creator_uid', 'text', (c) => c.notNull())
    .addColumn('creator_display_name', 'text', (c) => c.notNull())
    .addColumn('creator_email', 'text')
    .addColumn('status_message', 'text')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('config', 'text')
    .addColumn('resolved_config', 'text')
    .addColumn('runner', 'text')
    .addColumn('factory_id', 'text')
    .addColumn('automation_id', 'text')
    .addColumn('delivery_id', 'text')
    .addColumn('usage', 'text')
    .addColumn('event_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('claim_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_requested_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  // Worker claim: oldest QUEUED first.
  await db.schema.createIndex('runs_state_created_idx').on('runs').columns(['state', 'created_at']).execute();
  // Sweeper: expired leases of CLAIMED/INPROGRESS runs.
  await db.schema.createIndex('runs_state_lease_idx').on('runs').columns(['state', 'lease_expires_at']).execute();
  // Keyset listing in both sort orders.
  await db.schema.createIndex('runs_team_created_idx').on('runs').columns(['team_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('runs_team_updated_idx').on('runs').columns(['team_id', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('run_events')
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_events_pk', ['run_id', 'seq'])
    .execute();

  await db.schema
    .createTable('run_steps')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('summary', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addUniqueConstraint('run_steps_run_position_uq', ['run_id', 'position'])
    .execute();

  await db.schema
    .createTable('run_followups')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('run_followups_run_idx').on('run_followups').columns(['run_id', 'delivered_at', 'created_at']).execute();

  await db.schema
    .createTable('run_attachments')
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', binaryType(dialectOfDb(db)), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_attachments_pk', ['run_id', 'file_name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['run_attachments', 'run_followups', 'run_steps', 'run_events', 'runs']) {
    await db.schema.dropTable(table).execute();
  }
}
