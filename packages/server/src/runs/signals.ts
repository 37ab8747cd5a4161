/**
 * In-process signals between the run data modules (runs/), the workers and the SSE streams of ONE server:
 * a `RunSignals` is built with the server context (`ctx.runSignals`, main.ts) and lives as long as it.
 *
 * Across processes (and across servers in one test process) the database is the source of truth: workers
 * notice a cancel on their next heartbeat, a run's SSE stream falls back to polling. The team-wide stream
 * has no such fallback: it carries the changes of this server only (docs/decisions.md §Dashboard).
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
  /** Run events by run: wake that run's SSE streams without polling when the event was committed by this server. */
  private readonly runListeners = new Map<string, Set<RunEventListener>>();
  /** Run events by team: wake the team-wide SSE streams (state changes of every run of the team). */
  private readonly teamListeners = new Map<string, Set<RunEventListener>>();
  /** In-flight executions: a cancel aborts this server's runner at once. */
  private readonly inFlight = new Map<string, AbortController>();

  /** Calls `listener` after each commit that appended events to the run (on this server). Returns an unsubscribe function. */
  onRunEvent(runId: string, listener: RunEventListener): () => void {
    return subscribe(this.runListeners, runId, listener);
  }

  /**
   * Calls `listener` with the run's id after each commit that appended events to any run of the team (on
   * this server), from the run's creation on. Returns an unsubscribe function.
   */
  onTeamRunEvent(teamId: string, listener: RunEventListener): () => void {
    return subscribe(this.teamListeners, teamId, listener);
  }

  /**
   * Wakes the listeners of a run and of its team. Call it AFTER the transaction that created the run or
   * appended its events committed (the run data modules do this themselves; code that calls `appendEvent`
   * or inserts runs inside its own transaction calls it too).
   */
  notifyRunEvent(teamId: string, runId: string): void {
    wake(this.runListeners.get(runId), runId);
    wake(this.teamListeners.get(teamId), runId);
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

function subscribe(listeners: Map<string, Set<RunEventListener>>, key: string, listener: RunEventListener): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  return () => {
    const current = listeners.get(key);
    if (!current) return;
    current.delete(listener);
    if (current.size === 0) listeners.delete(key);
  };
}

function wake(listeners: Set<RunEventListener> | undefined, runId: string): void {
  if (!listeners) return;
  for (const listener of [...listeners]) {
    try {
      listener(runId);
    } catch {
      // a listener's failure must not break the writer
    }
  }
}
