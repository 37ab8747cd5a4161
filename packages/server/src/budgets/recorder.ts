/**
 * The run's UsageRecorder (usage-recorder.ts): records each model call's tokens and cost on the run and
 * its team's monthly counters, and enforces the run's own budget and the team's. Whatever makes model
 * calls for a run (the model runner, the model gateway) calls `assertWithinBudget()` before each call and
 * `add()` after it; either throws a BudgetExceededError, whose status message the worker ends the run
 * FAILED with (engine/worker.ts).
 */
import type { ServerContext } from '../context';
import { RunFailureError, type ResolvedAgentConfig, type TokenUsage } from '../runs/contract';
import type { UsageRecorder } from './usage-recorder';
import { addRunUsage } from '../runs/executions';
import { findRunUsage, type RunsDeps, type StoredUsage } from '../runs/repository';
import { spentLimit, type SpentWhen } from './limits';
import { costMicros, formatUsd, monthOf } from './money';
import { addTeamMonthlyUsage } from './repository';
import { runLimits } from './run-budget';
import { teamBudgetSpent } from './service';

export class BudgetExceededError extends RunFailureError {
  override readonly name = 'BudgetExceededError';
  constructor(message: string) {
    super(message, 'budget_exceeded');
  }
}

/** Model calls that name no model are the run's configured one; a run without one is `unknown`. */
const UNKNOWN_MODEL = 'unknown';

const describeUsage = (usage: StoredUsage | null): string => {
  const tokens = `${(usage?.total_tokens ?? 0).toLocaleString('en-US')} tokens`;
  return usage?.cost_micros === undefined ? tokens : `${tokens} (${formatUsd(usage.cost_micros)})`;
};

export function createUsageRecorder(
  ctx: RunsDeps & Pick<ServerContext, 'settings'>,
  run: { id: string; team_id: string },
  config: ResolvedAgentConfig,
): UsageRecorder {
  const enforce = async (usage: StoredUsage | null, when: SpentWhen): Promise<void> => {
    const own = spentLimit(runLimits(config, usage), when);
    if (own) throw new BudgetExceededError(own);
    const team = await teamBudgetSpent(ctx, run.team_id, when);
    if (team) throw new BudgetExceededError(`${team} The run used ${describeUsage(usage)}.`);
  };
  let exceeded: BudgetExceededError | undefined;
  const recording = new Set<Promise<void>>();
  const record = async (spent: TokenUsage, modelId: string): Promise<void> => {
    const cost = costMicros(ctx.settings.modelPrices, modelId, spent);
    const month = monthOf(ctx.clock.now());
    const usage = await addRunUsage(ctx, run.team_id, run.id, spent, cost, (tx) =>
      addTeamMonthlyUsage(tx, { teamId: run.team_id, month, modelId, spent, costMicros: cost ?? 0 }),
    );
    if (!usage) return;
    try {
      await enforce(usage, 'passed');
    } catch (err) {
      // Kept: the model gateway records usage while a harness goes on, so the worker reads it at the end.
      if (err instanceof BudgetExceededError) exceeded ??= err;
      throw err;
    }
  };
  return {
    add(spent: TokenUsage, modelId = config.model_id ?? UNKNOWN_MODEL) {
      const recorded = record(spent, modelId);
      const tracked = recorded.catch(() => {});
      recording.add(tracked);
      void tracked.finally(() => recording.delete(tracked));
      return recorded;
    },
    get exceeded() {
      return exceeded;
    },
    async settled() {
      await Promise.all([...recording]);
    },
    async assertWithinBudget() {
      const usage = await findRunUsage(ctx.db, run.team_id, run.id);
      if (usage !== undefined) await enforce(usage, 'reached');
    },
  };
}
