/**
 * Oz parity (docs/decisions.md §Oz parity):
 * - environments get `creator` and `last_editor` (RunCreatorInfo JSON of the API keys) for Oz's
 *   CloudEnvironment, and (team_id, updated_at, id) for its default order, most recently updated first;
 * - runs get two expression indexes on the resolved config, the same expressions the queries use
 *   (dialect.ts jsonTextField): (team_id, environment_id, created_at, id) finds the newest run of an
 *   environment (CloudEnvironment's last_task_created, setup_failed) and (team_id, skill_spec, created_at)
 *   when a skill last ran (GET /agent's last_run_timestamp), each with a short index walk;
 * - `run_metadata`: one row per key of a run's metadata, so `metadata[key]=value` filters read
 *   (team_id, key, value, run_id) instead of parsing every run's JSON (filled from runs.metadata here);
 * - PostgreSQL: trigram (pg_trgm) GIN indexes on the title, the prompt and the resolved skill_spec, which
 *   serve `q` (ILIKE '%text%') — only where this database lets the migration create the extension
 *   (PostgreSQL 13+ with CREATE on the database, where pg_trgm is a trusted extension, or a superuser; it
 *   ships in PostgreSQL's contrib). Elsewhere `q` stays a scan of the team's runs, as before;
 * - stored conversation blocks take the contract's object shapes: an `action_result` whose `output` was a
 *   string becomes `{text: output}`, and an `action` whose `input` was the model's unparseable arguments
 *   (a string) becomes `{unparsed_arguments: input}` (ActionResultBlock, ActionBlock).
 */
import { sql, type Kysely } from 'kysely';
import { dialectOfDb, jsonTextField } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOfDb(db);
  await db.schema.alterTable('environments').addColumn('creator', 'text').execute();
  await db.schema.alterTable('environments').addColumn('last_editor', 'text').execute();
  await db.schema.createIndex('environments_team_updated_idx').on('environments').columns(['team_id', 'updated_at', 'id']).execute();
  await db.schema
    .createIndex('runs_team_environment_created_idx')
    .on('runs')
    .column('team_id')
    .expression(jsonTextField(dialect, 'resolved_config', 'environment_id'))
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('runs_team_skill_created_idx')
    .on('runs')
    .column('team_id')
    .expression(jsonTextField(dialect, 'resolved_config', 'skill_spec'))
    .column('created_at')
    .execute();

  await db.schema
    .createTable('run_metadata')
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_metadata_pk', ['run_id', 'key'])
    .execute();
  await db.schema.createIndex('run_metadata_lookup_idx').on('run_metadata').columns(['team_id', 'key', 'value', 'run_id']).execute();
  if (dialect === 'postgres') {
    await sql`insert into run_metadata (team_id, run_id, key, value)
      select r.team_id, r.id, m.key, m.value from runs r, jsonb_each_text(r.metadata::jsonb) m where r.metadata is not null`.execute(db);
    if (await canUseTrigramIndexes(db)) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index runs_title_trgm_idx on runs using gin (title gin_trgm_ops)`.execute(db);
      await sql`create index runs_prompt_trgm_idx on runs using gin (prompt gin_trgm_ops)`.execute(db);
      await sql`create index runs_skill_trgm_idx on runs using gin ((${jsonTextField(dialect, 'resolved_config', 'skill_spec')}) gin_trgm_ops)`.execute(db);
    }
  } else {
    await sql`insert into run_metadata (team_id, run_id, key, value)
      select r.team_id, r.id, m.key, m.value from runs r, json_each(r.metadata) m where r.metadata is not null`.execute(db);
  }

  if (dialect === 'postgres') {
    await sql`update run_events set data = jsonb_set(data::jsonb, '{block,output}', jsonb_build_object('text', data::jsonb #>> '{block,output}'))::text
      where kind = 'content' and data::jsonb #>> '{block,type}' = 'action_result' and jsonb_typeof(data::jsonb #> '{block,output}') = 'string'`.execute(db);
    await sql`update run_events set data = jsonb_set(data::jsonb, '{block,output}', jsonb_build_object('value', data::jsonb #> '{block,output}'))::text
      where kind = 'content' and data::jsonb #>> '{block,type}' = 'action_result' and jsonb_typeof(data::jsonb #> '{block,output}') <> 'object'`.execute(db);
    await sql`update run_events set data = jsonb_set(data::jsonb, '{block,input}', jsonb_build_object('unparsed_arguments', data::jsonb #>> '{block,input}'))::text
      where kind = 'content' and data::jsonb #>> '{block,type}' = 'action' and jsonb_typeof(data::jsonb #> '{block,input}') = 'string'`.execute(db);
  } else {
    await sql`update run_events set data = json_set(data, '$.block.output', json_object('text', json_extract(data, '$.block.output')))
      where kind = 'content' and json_extract(data, '$.block.type') = 'action_result' and json_type(data, '$.block.output') = 'text'`.execute(db);
    await sql`update run_events set data = json_set(data, '$.block.output', json_object('value', json(json_extract(data, '$.block.output'))))
      where kind = 'content' and json_extract(data, '$.block.type') = 'action_result' and json_type(data, '$.block.output') <> 'object'`.execute(db);
    await sql`update run_events set data = json_set(data, '$.block.input', json_object('unparsed_arguments', json_extract(data, '$.block.input')))
      where kind = 'content' and json_extract(data, '$.block.type') = 'action' and json_type(data, '$.block.input') = 'text'`.execute(db);
  }
}

/** pg_trgm is offered and this role may create it (or it exists): PostgreSQL 13+ trusts it to a database's creators. */
async function canUseTrigramIndexes(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ usable: boolean }>`select
      exists (select 1 from pg_available_extensions where name = 'pg_trgm')
      and (
        exists (select 1 from pg_extension where extname = 'pg_trgm')
        or (select rolsuper from pg_roles where rolname = current_user)
        or (current_setting('server_version_num')::int >= 130000 and has_database_privilege(current_database(), 'CREATE'))
      ) as usable`.execute(db);
  return rows[0]?.usable === true;
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists runs_skill_trgm_idx`.execute(db);
  await sql`drop index if exists runs_prompt_trgm_idx`.execute(db);
  await sql`drop index if exists runs_title_trgm_idx`.execute(db);
  await db.schema.dropTable('run_metadata').execute();
  await db.schema.dropIndex('runs_team_skill_created_idx').execute();
  await db.schema.dropIndex('runs_team_environment_created_idx').execute();
  await db.schema.dropIndex('environments_team_updated_idx').execute();
  await db.schema.alterTable('environments').dropColumn('last_editor').execute();
  await db.schema.alterTable('environments').dropColumn('creator').execute();
}
