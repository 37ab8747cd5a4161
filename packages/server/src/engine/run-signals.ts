/**
 * In-process signals between the run data modules (runs/), the workers and the SSE streams of ONE server process.
 *
 * Keyed by run id (UUIDv4, unique across every database a process talks to), so one module-level
 * registry is safe even when tests run several engines side by side. Across processes the database is
 * the source of truth: workers notice a cancel on their next heartbeat, SSE streams fall back to polling.
 */

/** Why a runner's AbortSignal fired; runners read it as `signal.reason`. */
export type RunAbortKind = 'cancelled' | 'shutdown' | 'lease_lost';

export class RunAbortedError extends Error {
  override readonly name = 'RunAbortedError';
  constructor(readonly kind: RunAbortKind) {
    super(`run aborted: ${kind}`);
  }
}

export const abortKindOf = (signal: AbortSignal): RunAbortKind | undefined =>
  signal.aborted && signal.reason instanceof RunAbortedError ? signal.reason.kind : undefined;

// ---------------------------------------------------------------------------------------------------
// Run events: wake SSE streams without polling when the event was committed in this process.

export type RunEventListener = (runId: string) => void;

const eventListeners = new Map<string, Set<RunEventListener>>();

/** Calls `listener` after each commit that appended events to the run (in this process). Returns an unsubscribe function. */
export function onRunEvent(runId: string, listener: RunEventListener): () => void {
  let set = eventListeners.get(runId);
  if (!set) {
    set = new Set();
    eventListeners.set(runId, set);
  }
  set.add(listener);
  return () => {
    const current = eventListeners.get(runId);
    if (!current) return;
    current.delete(listener);
    if (current.size === 0) eventListeners.delete(runId);
  };
}

/**
 * Wakes the listeners of a run. Call it AFTER the transaction that appended events committed (the
 * run data modules do this themselves; code that calls `appendEvent` inside its own transaction calls it too).
 */
export function notifyRunEvent(runId: string): void {
  const set = eventListeners.get(runId);
  if (!set) return;
  for (const listener of [...set]) {
    try {
      listener(runId);
    } catch {
      // a listener's failure must not break the writer
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// In-flight executions: cancel aborts the runner of this process at once.

const inFlight = new Map<string, AbortController>();

export function registerInFlight(runId: string, controller: AbortController): () => void {
  inFlight.set(runId, controller);
  return () => {
    if (inFlight.get(runId) === controller) inFlight.delete(runId);
  };
}

/** Aborts the run's runner if it executes in this process; returns whether one was found. */
export function abortInFlight(runId: string, kind: RunAbortKind): boolean {
  const controller = inFlight.get(runId);
  if (!controller) return false;
  if (!controller.signal.aborted) controller.abort(new RunAbortedError(kind));
  return true;
}
