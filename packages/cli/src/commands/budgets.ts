import type { TeamBudget, TeamBudgetUpdate, TeamUsage } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { formatFields, formatTable, formatTime } from '../output';

/** `--max-tokens 2000000`, `--max-cost 50`, or `none` to remove that limit (commander takes a parsed null for no value). */
function limitOption(integer: boolean): (value: string) => number | 'none' {
  return (value) => {
    if (value === 'none') return value;
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isSafeInteger(n))) {
      throw new InvalidArgumentError(`expected a positive ${integer ? 'integer' : 'number'}, or none.`);
    }
    return n;
  };
}

const usd = (value: number | null | undefined) => (value === null || value === undefined ? undefined : `$${value}`);
const tokens = (value: number | null | undefined) => (value === null || value === undefined ? undefined : value.toLocaleString('en-US'));

function formatBudget(budget: TeamBudget): string {
  return formatFields([
    ['month', budget.month],
    ['max_tokens_per_month', tokens(budget.max_tokens_per_month) ?? 'no limit'],
    ['max_cost_usd_per_month', usd(budget.max_cost_usd_per_month) ?? 'no limit'],
    ['used_tokens', tokens(budget.used_tokens)],
    ['used_cost_usd', usd(budget.used_cost_usd)],
    ['exceeded', budget.exceeded ? 'yes: no run can start' : 'no'],
    ['updated_at', formatTime(budget.updated_at)],
  ]);
}

function formatUsage(usage: TeamUsage): string {
  const totals = formatFields([
    ['month', usage.month],
    ['prompt_tokens', tokens(usage.prompt_tokens)],
    ['completion_tokens', tokens(usage.completion_tokens)],
    ['total_tokens', tokens(usage.total_tokens)],
    ['cost_usd', usd(usage.cost_usd)],
  ]);
  if (usage.models.length === 0) return totals;
  const models = formatTable(usage.models, [
    { header: 'MODEL', value: (m) => m.model_id },
    { header: 'PROMPT', value: (m) => tokens(m.prompt_tokens) },
    { header: 'COMPLETION', value: (m) => tokens(m.completion_tokens) },
    { header: 'TOTAL', value: (m) => tokens(m.total_tokens) },
    { header: 'COST', value: (m) => usd(m.cost_usd) },
  ]);
  return `${totals}\n\n${models}`;
}

/** `budget get|set` and `usage`: the team's monthly budget and what its runs spent. */
export function registerBudgetCommands(program: Command): void {
  const budget = program.command('budget').description("the team's monthly token and cost budget");

  budget
    .command('get')
    .description("show the team's monthly budget and this month's use of it")
    .action(async (_options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const current = await client.budget.retrieve();
      out.result(current, () => formatBudget(current));
    });

  budget
    .command('set')
    .description('set the monthly limits (admin); a limit not given keeps its value, `none` removes it')
    .option('--max-tokens <n>', 'tokens per calendar month (UTC), or none', limitOption(true))
    .option('--max-cost <usd>', "USD per calendar month at the server's model prices, or none", limitOption(false))
    .action(async (options: { maxTokens?: number | 'none'; maxCost?: number | 'none' }, command: Command) => {
      if (options.maxTokens === undefined && options.maxCost === undefined) throw new UsageError('give --max-tokens and/or --max-cost.');
      const { client, out } = contextOf(command);
      // The API replaces both limits: the one not given is sent as it is now.
      const current = options.maxTokens === undefined || options.maxCost === undefined ? await client.budget.retrieve() : undefined;
      const limit = (given: number | 'none' | undefined, now: number | null | undefined) => (given === 'none' ? null : (given ?? now ?? null));
      const body: TeamBudgetUpdate = {
        max_tokens_per_month: limit(options.maxTokens, current?.max_tokens_per_month),
        max_cost_usd_per_month: limit(options.maxCost, current?.max_cost_usd_per_month),
      };
      const updated = await client.budget.update(body);
      out.result(updated, () => formatBudget(updated));
    });

  program
    .command('usage')
    .description("what the team's runs spent in a calendar month (UTC), in total and per model")
    .option('--month <YYYY-MM>', 'the month (default: this one)')
    .action(async (options: { month?: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const usage = await client.usage.retrieve(options.month ? { month: options.month } : {});
      out.result(usage, () => formatUsage(usage));
    });
}
