/**
 * Run setup logs (docs/decisions.md §Write-only environment variables and the setup log): what each
 * environment setup command of a run printed, with the environment's secret values replaced, readable by
 * admins only (`GET /agent/runs/{runId}/setup-log`). One row per command per execution; `position` orders
 * a run's rows and is unique per run. They live and go with the run.
 *
 * And an environment's plain variables (`plain_env_vars`, readable JSON; null = none): the setup commands
 * and the agent get them, unlike `env_vars`, which reach the setup commands only.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_setup_logs')
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('environment_id', 'text', (c) => c.notNull())
    .addColumn('command_position', 'integer', (c) => c.notNull())
    .addColumn('command_count', 'integer', (c) => c.notNull())
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text', (c) => c.notNull())
    .addColumn('exit_code', 'integer')
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull())
    .addColumn('output_truncated', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_setup_logs_pk', ['run_id', 'position'])
    .execute();
  await db.schema.alterTable('environments').addColumn('plain_env_vars', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('environments').dropColumn('plain_env_vars').execute();
  await db.schema.dropTable('run_setup_logs').execute();
}
