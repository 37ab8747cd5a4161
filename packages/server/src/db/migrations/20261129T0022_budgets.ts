/**
 * Budgets and usage (docs/decisions.md §Budgets and usage):
 * - `team_budgets`: a team's monthly limits, tokens and/or cost in micro-dollars (USD × 10⁶), null = none;
 * - `team_monthly_usage`: what a team's runs spent per calendar month (UTC, `YYYY-MM`) and model, added to
 *   in the transaction that adds a model call's tokens to its run (runs/executions.ts addRunUsage), so
 *   every process on one database reads the same counters. A run's own cost rides in `runs.usage`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_budgets')
    .addColumn('team_id', 'text', (c) => c.primaryKey().notNull().references('teams.id').onDelete('cascade'))
    .addColumn('max_tokens_per_month', 'bigint')
    .addColumn('max_cost_micros_per_month', 'bigint')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('team_monthly_usage')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('model_id', 'text', (c) => c.notNull())
    .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
    .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
    .addColumn('total_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cost_micros', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_monthly_usage_pk', ['team_id', 'month', 'model_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_monthly_usage').execute();
  await db.schema.dropTable('team_budgets').execute();
}
