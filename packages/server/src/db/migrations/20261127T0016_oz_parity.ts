/**
 * Oz parity (docs/decisions.md §Oz parity):
 * - environments get `creator` and `last_editor` (RunCreatorInfo JSON of the API keys) for Oz's
 *   CloudEnvironment, and (team_id, updated_at, id) for its default order, most recently updated first;
 * - runs get two expression indexes on the resolved config, the same expressions the queries use
 *   (dialect.ts jsonTextField): (team_id, environment_id, created_at, id) finds the newest run of an
 *   environment (CloudEnvironment's last_task_created, setup_failed) and (team_id, skill_spec, created_at)
 *   when a skill last ran (GET /agent's last_run_timestamp), each with a short index walk;
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_skill_created_idx').execute();
  await db.schema.dropIndex('runs_team_environment_created_idx').execute();
  await db.schema.dropIndex('environments_team_updated_idx').execute();
  await db.schema.alterTable('environments').dropColumn('last_editor').execute();
  await db.schema.alterTable('environments').dropColumn('creator').execute();
}
