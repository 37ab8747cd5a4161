/**
 * In-process signals between the run data modules (runs/), the workers and the SSE streams of ONE server:
 * a `RunSignals` is built with the server context (`ctx.runSignals`, main.ts) and lives as long as it.
 *
 * Across processes (and across servers in one test process) the database is the source of truth: workers
 * notice a cancel on their next heartbeat, SSE streams fall back to polling.
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

export type RunEventListener = (runId: string) => void;

export class RunSignals {
  /** Run events: wake SSE streams without polling when the event was committed by this server. */
  private readonly eventListeners = new Map<string, Set<RunEventListener>>();
  /** In-flight executions: a cancel aborts this server's runner at once. */
  private readonly inFlight = new Map<string, AbortController>();

  /** Calls `listener` after each commit that appended events to the run (on this server). Returns an unsubscribe function. */
  onRunEvent(runId: string, listener: RunEventListener): () => void {
    let set = this.eventListeners.get(runId);
    if (!set) {
      set = new Set();
      this.eventListeners.set(runId, set);
    }
    set.add(listener);
    return () => {
      const current = this.eventListeners.get(runId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.eventListeners.delete(runId);
    };
  }

  /**
   * Wakes the listeners of a run. Call it AFTER the transaction that appended events committed (the
   * run data modules do this themselves; code that calls `appendEvent` inside its own transaction calls it too).
   */
  notifyRunEvent(runId: string): void {
    const set = this.eventListeners.get(runId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(runId);
      } catch {
        // a listener's failure must not break the writer
      }
    }
  }

  registerInFlight(runId: string, controller: AbortController): () => void {
    this.inFlight.set(runId, controller);
    return () => {
      if (this.inFlight.get(runId) === controller) this.inFlight.delete(runId);
    };
  }

  /** Aborts the run's runner if it executes on this server; returns whether one was found. */
  abortInFlight(runId: string, kind: RunAbortKind): boolean {
    const controller = this.inFlight.get(runId);
    if (!controller) return false;
    if (!controller.signal.aborted) controller.abort(new RunAbortedError(kind));
    return true;
  }
}
