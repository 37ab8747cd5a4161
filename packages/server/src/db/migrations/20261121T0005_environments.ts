/** Cloud environments (tables.ts: EnvironmentsTable). Env var values are one encrypted JSON object per row. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('environments')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('setup_commands', 'text', (c) => c.notNull())
    .addColumn('env_vars', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Names are unique within a team (a taken name answers 409).
  await db.schema.createIndex('environments_team_name_idx').on('environments').columns(['team_id', 'name']).unique().execute();
  // Lists page by (created_at, id) within a team.
  await db.schema.createIndex('environments_team_created_idx').on('environments').columns(['team_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('environments').execute();
}
