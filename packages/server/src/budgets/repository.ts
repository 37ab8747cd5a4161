/**
 * The team's budget and monthly usage counters; every query takes the team id. The counters are added
 * to in the transaction that adds to the run's own usage (recorder.ts, through runs/executions.ts addRunUsage).
 */
import { sql, type Kysely } from 'kysely';
import { toCount } from '../db/dialect';
import type { Database, Timestamp } from '../db/tables';
import type { SpentTokens } from './money';
import { teamScope } from '../db/scoped';

type Db = Kysely<Database>;

export interface MonthlyCounter extends SpentTokens {
  model_id: string;
  cost_micros: number;
}

export interface TeamBudgetRow {
  maxTokensPerMonth: number | null;
  maxCostMicrosPerMonth: number | null;
  updatedAt: Timestamp | null;
}

const nullableCount = (value: unknown): number | null => (value === null || value === undefined ? null : toCount(value));

/** Adds one model call's tokens and cost to the team's counter of that month and model. */
export async function addTeamMonthlyUsage(
  tx: Db,
  entry: { teamId: string; month: string; modelId: string; spent: SpentTokens; costMicros: number },
): Promise<void> {
  const { teamId, month, modelId, spent, costMicros } = entry;
  await teamScope(tx, teamId)
    .insertInto('team_monthly_usage', {
      month,
      model_id: modelId,
      prompt_tokens: spent.prompt_tokens,
      completion_tokens: spent.completion_tokens,
      total_tokens: spent.total_tokens,
      cost_micros: costMicros,
    })
    .onConflict((oc) =>
      oc.columns(['team_id', 'month', 'model_id']).doUpdateSet({
        prompt_tokens: sql`team_monthly_usage.prompt_tokens + ${spent.prompt_tokens}`,
        completion_tokens: sql`team_monthly_usage.completion_tokens + ${spent.completion_tokens}`,
        total_tokens: sql`team_monthly_usage.total_tokens + ${spent.total_tokens}`,
        cost_micros: sql`team_monthly_usage.cost_micros + ${costMicros}`,
      }),
    )
    .execute();
}

/** The team's counters of one month, one per model, most tokens first. */
export async function listTeamMonthlyUsage(db: Db, teamId: string, month: string): Promise<MonthlyCounter[]> {
  const rows = await teamScope(db, teamId)
    .selectFrom('team_monthly_usage')
    .select(['model_id', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'cost_micros'])
    .where('month', '=', month)
    .orderBy('total_tokens', 'desc')
    .orderBy('model_id')
    .execute();
  return rows.map((r) => ({
    model_id: r.model_id,
    prompt_tokens: toCount(r.prompt_tokens),
    completion_tokens: toCount(r.completion_tokens),
    total_tokens: toCount(r.total_tokens),
    cost_micros: toCount(r.cost_micros),
  }));
}

export async function findTeamBudget(db: Db, teamId: string): Promise<TeamBudgetRow | undefined> {
  const row = await teamScope(db, teamId)
    .selectFrom('team_budgets')
    .select(['max_tokens_per_month', 'max_cost_micros_per_month', 'updated_at'])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    maxTokensPerMonth: nullableCount(row.max_tokens_per_month),
    maxCostMicrosPerMonth: nullableCount(row.max_cost_micros_per_month),
    updatedAt: row.updated_at,
  };
}

export async function upsertTeamBudget(
  db: Db,
  teamId: string,
  budget: { maxTokensPerMonth: number | null; maxCostMicrosPerMonth: number | null; updatedAt: Timestamp },
): Promise<void> {
  const values = { max_tokens_per_month: budget.maxTokensPerMonth, max_cost_micros_per_month: budget.maxCostMicrosPerMonth, updated_at: budget.updatedAt };
  await teamScope(db, teamId)
    .insertInto('team_budgets', values)
    .onConflict((oc) => oc.column('team_id').doUpdateSet(values))
    .execute();
}
