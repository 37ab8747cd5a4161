/**
 * Team budgets and usage (docs/decisions.md §Budgets and usage): the monthly budget an admin sets, the
 * month's usage per model, and the refusal to start runs once the budget is spent.
 */
import type { AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import type { components } from '@agent-runs/contract';
import { invalidRequest, ProblemError } from '../problems';
import { spentLimit, type Limit, type SpentWhen } from './limits';
import { microsOf, MIN_COST_USD, monthOf, usdOf } from './money';
import { findTeamBudget, listTeamMonthlyUsage, upsertTeamBudget, type MonthlyCounter, type TeamBudgetRow } from './repository';

type Schemas = components['schemas'];
export type TeamBudget = Schemas['TeamBudget'];
export type TeamUsage = Schemas['TeamUsage'];
type Ctx = Pick<ServerContext, 'db' | 'clock' | 'settings'>;

const NO_BUDGET: TeamBudgetRow = { maxTokensPerMonth: null, maxCostMicrosPerMonth: null, updatedAt: null };

interface MonthUse {
  month: string;
  counters: MonthlyCounter[];
  totalTokens: number;
  costMicros: number;
}

async function monthUse(ctx: Ctx, teamId: string, month: string): Promise<MonthUse> {
  const counters = await listTeamMonthlyUsage(ctx.db, teamId, month);
  return {
    month,
    counters,
    totalTokens: counters.reduce((sum, c) => sum + c.total_tokens, 0),
    costMicros: counters.reduce((sum, c) => sum + c.cost_micros, 0),
  };
}

function teamLimits(budget: TeamBudgetRow, use: MonthUse): Limit[] {
  const owner = `The team`;
  const limits: Limit[] = [];
  if (budget.maxTokensPerMonth !== null) {
    limits.push({ owner, name: `its monthly token budget for ${use.month}`, used: use.totalTokens, limit: budget.maxTokensPerMonth, unit: 'tokens' });
  }
  if (budget.maxCostMicrosPerMonth !== null) {
    limits.push({ owner, name: `its monthly cost budget for ${use.month}`, used: use.costMicros, limit: budget.maxCostMicrosPerMonth, unit: 'micros' });
  }
  return limits;
}

/** Which of the team's monthly limits is spent this month (a sentence), or undefined. */
export async function teamBudgetSpent(ctx: Ctx, teamId: string, when: SpentWhen): Promise<string | undefined> {
  const budget = await findTeamBudget(ctx.db, teamId);
  if (!budget || (budget.maxTokensPerMonth === null && budget.maxCostMicrosPerMonth === null)) return undefined;
  return spentLimit(teamLimits(budget, await monthUse(ctx, teamId, monthOf(ctx.clock.now()))), when);
}

/**
 * A team whose monthly budget is spent starts no run: `409 limit_exceeded`, final (a retry cannot
 * succeed before an admin acts or the month ends), naming the budget and what was used.
 */
export async function refuseWhenTeamBudgetSpent(ctx: Ctx, teamId: string): Promise<void> {
  const spent = await teamBudgetSpent(ctx, teamId, 'reached');
  if (!spent) return;
  throw new ProblemError(409, 'limit_exceeded', `${spent} No run can start until an admin raises the budget (PUT /team/budget) or the month ends (UTC).`, {
    retryable: false,
  });
}

const pricesCosts = (ctx: Ctx) => ctx.settings.modelPrices.size > 0;

function toTeamBudget(ctx: Ctx, budget: TeamBudgetRow, use: MonthUse): TeamBudget {
  return {
    max_tokens_per_month: budget.maxTokensPerMonth,
    max_cost_usd_per_month: budget.maxCostMicrosPerMonth === null ? null : usdOf(budget.maxCostMicrosPerMonth),
    month: use.month,
    used_tokens: use.totalTokens,
    ...(pricesCosts(ctx) ? { used_cost_usd: usdOf(use.costMicros) } : {}),
    exceeded: spentLimit(teamLimits(budget, use), 'reached') !== undefined,
    updated_at: budget.updatedAt,
  };
}

export async function getTeamBudget(ctx: Ctx, teamId: string): Promise<TeamBudget> {
  const budget = (await findTeamBudget(ctx.db, teamId)) ?? NO_BUDGET;
  return toTeamBudget(ctx, budget, await monthUse(ctx, teamId, monthOf(ctx.clock.now())));
}

export async function updateTeamBudget(ctx: Ctx, teamId: string, update: Schemas['TeamBudgetUpdate'], audit: AuditTrail): Promise<TeamBudget> {
  const maxCost = update.max_cost_usd_per_month ?? null;
  if (maxCost !== null && !pricesCosts(ctx)) {
    throw invalidRequest('max_cost_usd_per_month needs model prices, and this server prices no model (MODEL_PRICES is empty): set a token budget instead.', [
      { path: '$.max_cost_usd_per_month', message: 'this server prices no model' },
    ]);
  }
  if (maxCost !== null && maxCost < MIN_COST_USD) {
    throw invalidRequest('max_cost_usd_per_month is below a micro-dollar.', [{ path: '$.max_cost_usd_per_month', message: 'must be at least 0.000001' }]);
  }
  const budget = {
    maxTokensPerMonth: update.max_tokens_per_month ?? null,
    maxCostMicrosPerMonth: maxCost === null ? null : microsOf(maxCost),
    updatedAt: toTimestamp(ctx.clock.now()),
  };
  await ctx.db.transaction().execute(async (tx) => {
    await upsertTeamBudget(tx, teamId, budget);
    // The budget is the team's own: its id is the team's.
    await audit.record(tx, teamId);
  });
  return toTeamBudget(ctx, budget, await monthUse(ctx, teamId, monthOf(ctx.clock.now())));
}

export async function getTeamUsage(ctx: Ctx, teamId: string, month: string = monthOf(ctx.clock.now())): Promise<TeamUsage> {
  const use = await monthUse(ctx, teamId, month);
  const priced = pricesCosts(ctx);
  const cost = (micros: number) => (priced ? { cost_usd: usdOf(micros) } : {});
  return {
    month,
    prompt_tokens: use.counters.reduce((sum, c) => sum + c.prompt_tokens, 0),
    completion_tokens: use.counters.reduce((sum, c) => sum + c.completion_tokens, 0),
    total_tokens: use.totalTokens,
    ...cost(use.costMicros),
    models: use.counters.map((c) => ({
      model_id: c.model_id,
      prompt_tokens: c.prompt_tokens,
      completion_tokens: c.completion_tokens,
      total_tokens: c.total_tokens,
      ...cost(c.cost_micros),
    })),
  };
}
