/**
 * THE comparison of what was used with a limit, for a run's own budget (config.max_tokens, max_cost) and
 * its team's monthly one alike. Before a model call or a run's start a limit counts as spent once usage
 * reaches it; after a call, once usage passes it (a run whose last answer lands exactly on its limit
 * finished within it).
 */
import { formatUsd } from './money';

export type SpentWhen = 'reached' | 'passed';

export interface Limit {
  /** Whose limit, as the message names it: `The run used …; its max_tokens is …`. */
  owner: string;
  name: string;
  used: number;
  limit: number;
  unit: 'tokens' | 'micros';
}

const amount = (value: number, unit: Limit['unit']) => (unit === 'tokens' ? `${value.toLocaleString('en-US')} tokens` : formatUsd(value));

/** The first limit spent, as a sentence naming it and what was used; undefined while every one holds. */
export function spentLimit(limits: readonly Limit[], when: SpentWhen): string | undefined {
  const spent = limits.find((l) => (when === 'reached' ? l.used >= l.limit : l.used > l.limit));
  if (!spent) return undefined;
  return `${spent.owner} used ${amount(spent.used, spent.unit)}; ${spent.name} is ${amount(spent.limit, spent.unit)}.`;
}
