/**
 * Tokens priced at the operator's MODEL_PRICES (settings.ts), in whole micro-dollars (USD × 10⁶): integers
 * add up exactly in the database counters, where floating-point dollars would drift.
 */
import type { ModelPrices } from '../settings';

export interface SpentTokens {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * What `spent` cost with `modelId`: undefined when the server prices nothing (no costs are kept at all),
 * 0 for a model without a price. Prices are per million tokens, so tokens × price is micro-dollars.
 */
export function costMicros(prices: ModelPrices, modelId: string, spent: SpentTokens): number | undefined {
  if (prices.size === 0) return undefined;
  const price = prices.get(modelId);
  if (!price) return 0;
  return Math.round(spent.prompt_tokens * price.input_per_mtok + spent.completion_tokens * price.output_per_mtok);
}

export const usdOf = (micros: number): number => micros / 1_000_000;
export const microsOf = (usd: number): number => Math.round(usd * 1_000_000);

/** The smallest cost limit (USD), as the contract's `minimum` says: one micro-dollar, compared before rounding. */
export const MIN_COST_USD = 0.000001;

/** `$0.012345`: to the micro-dollar, as the API answers it. */
export const formatUsd = (micros: number): string =>
  `$${usdOf(micros)
    .toFixed(6)
    .replace(/0{1,4}$/, '')}`;

/** The calendar month (UTC) an instant belongs to, `YYYY-MM`: the key of the team's monthly counters. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);
