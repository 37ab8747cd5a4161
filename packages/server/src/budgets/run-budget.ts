/**
 * A run's own budget: `config.max_tokens` and `config.max_cost` (USD), extensions of this service in
 * AmbientAgentConfig, checked where a configuration is given and enforced by the run's UsageRecorder.
 */
import type { ResolvedAgentConfig } from '../runs/contract';
import type { ModelPrices } from '../settings';
import type { Limit } from './limits';
import { microsOf, MIN_COST_USD } from './money';
import type { StoredUsage } from '../runs/repository';

/** Validation errors of the budget fields (paths relative to the request body). */
export function validateRunBudget(config: ResolvedAgentConfig, prices: ModelPrices, pathPrefix = '$.config'): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  const { max_tokens: maxTokens, max_cost: maxCost } = config;
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens) || maxTokens < 1)) {
    errors.push({ path: `${pathPrefix}.max_tokens`, message: 'must be an integer of at least 1' });
  }
  if (maxCost !== undefined) {
    if (typeof maxCost !== 'number' || !Number.isFinite(maxCost) || maxCost < MIN_COST_USD) {
      errors.push({ path: `${pathPrefix}.max_cost`, message: 'must be a number of USD of at least 0.000001' });
    } else if (!config.model_id || !prices.has(config.model_id)) {
      // A cost cap the server cannot compute would never stop the run: refuse it rather than ignore it.
      errors.push({ path: `${pathPrefix}.max_cost`, message: `needs a price for the model ${config.model_id ?? '(none)'} in MODEL_PRICES` });
    }
  }
  return errors;
}

/** The run's own limits over what it used so far. */
export function runLimits(config: ResolvedAgentConfig, usage: StoredUsage | null): Limit[] {
  const owner = 'The run';
  const limits: Limit[] = [];
  if (config.max_tokens !== undefined) limits.push({ owner, name: 'its max_tokens', used: usage?.total_tokens ?? 0, limit: config.max_tokens, unit: 'tokens' });
  if (config.max_cost !== undefined)
    limits.push({ owner, name: 'its max_cost', used: usage?.cost_micros ?? 0, limit: microsOf(config.max_cost), unit: 'micros' });
  return limits;
}
