import type { RunState } from '@agent-runs/sdk';

/** A run's state, coloured by what it means for the person watching. */
export function StateBadge({ state }: { state: RunState }) {
  return <span className={`badge state-${state.toLowerCase()}`}>{state}</span>;
}
