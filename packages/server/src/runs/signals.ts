/**
 * Signals between the run data modules (runs/), the workers and the SSE streams: a `RunSignals` is built
 * with the server context (`ctx.runSignals`, main.ts) and lives as long as it.
 *
 * - In this process: the run data modules call `notifyRunEvent` after each commit that changed a run.
 * - Across processes on one PostgreSQL database: the same transactions also queue a notice
 *   (`announceInTransaction`, a NOTIFY delivered on commit); each process LISTENs (db/notifications.ts) and
 *   hands what arrives to `receive`, which wakes this process's SSE streams, aborts the in-flight execution
 *   of a cancelled run, and wakes idle workers for a queued run (docs/architecture.md §Several processes).
 * - Outbound notifications (notifications/outbox.ts) announce themselves the same way (kind `notifications`):
 *   this process's delivery workers wake at the commit's `notifyRunEvent`, other processes' on the notice.
 *   Notices are best effort: a worker still notices a cancel on its next heartbeat, a run's SSE stream and
 *   an idle worker still poll. On SQLite nothing crosses processes: the team-wide stream then carries the
 *   changes of this process only (docs/decisions.md §Dashboard).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { notifyOnCommit } from '../db/notifications';

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

/** The PostgreSQL channel of run notices. */
export const RUN_NOTICE_CHANNEL = 'agent_runs';

/**
 * What a committed transaction did to a run, as far as other processes care: appended events (every
 * change does), queued it (workers may claim it), cancelled it (its worker must stop) or recorded outbound
 * notifications of its state change (notifications/outbox.ts: the delivery workers may claim them).
 */
export type RunNoticeKind = 'events' | 'queued' | 'cancelled' | 'notifications';

const KIND_CODES: Record<RunNoticeKind, string> = { events: 'e', queued: 'q', cancelled: 'c', notifications: 'n' };
/** Runs marked by open transactions that recorded notifications; past this many (rolled back ones never clear) the marks are dropped and polling covers. */
const MAX_PENDING_NOTIFICATION_MARKS = 10_000;
const KINDS_BY_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as RunNoticeKind]));

export class RunSignals {
  /** Names this process in its notices, so it skips its own (it has already woken its listeners). */
  private readonly origin = randomBytes(4).toString('hex');
  /** Idle workers of this process, woken by runs queued elsewhere. */
  private readonly queuedListeners = new Set<() => void>();
  /** Run events by run: wake that run's SSE streams without waiting for their next poll. */
  private readonly runListeners = new Map<string, Set<RunEventListener>>();
  /** Run events by team: wake the team-wide SSE streams (state changes of every run of the team). */
  private readonly teamListeners = new Map<string, Set<RunEventListener>>();
  /** In-flight executions of this process: a cancel aborts the runner at once. */
  private readonly inFlight = new Map<string, AbortController>();
  /** Notification delivery workers of this process, woken when notifications were recorded (here or elsewhere). */
  private readonly notificationListeners = new Set<() => void>();
  /** Runs whose transaction recorded notifications and has not yet committed here (see notifyRunEvent). */
  private readonly notificationsPending = new Set<string>();

  /** Calls `listener` after each commit that appended events to the run (here, or announced by another process). Returns an unsubscribe function. */
  onRunEvent(runId: string, listener: RunEventListener): () => void {
    return subscribe(this.runListeners, runId, listener);
  }

  /**
   * Calls `listener` with the run's id after each commit that appended events to any run of the team
   * (here, or announced by another process), from the run's creation on. Returns an unsubscribe function.
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
    // The commit of a transaction that recorded notifications: they are claimable now.
    if (this.notificationsPending.delete(runId)) this.wakeNotificationWorkers();
  }

  /**
   * Inside the transaction that changed the run: tells the other processes once it commits (a NOTIFY
   * of a few dozen bytes: `<kind> <origin> <team id> <run id>`; nothing on SQLite). Still call
   * `notifyRunEvent` (and wake this process's workers) after the commit.
   */
  announceInTransaction(tx: Kysely<any>, kind: RunNoticeKind, teamId: string, runId: string): Promise<void> {
    if (kind === 'notifications') {
      if (this.notificationsPending.size >= MAX_PENDING_NOTIFICATION_MARKS) this.notificationsPending.clear();
      this.notificationsPending.add(runId);
    }
    return notifyOnCommit(tx, RUN_NOTICE_CHANNEL, `${KIND_CODES[kind]} ${this.origin} ${teamId} ${runId}`);
  }

  /** A notice from the database (db/notifications.ts): wakes what this process has waiting on that run. */
  receive(payload: string): void {
    const [code, origin, teamId, runId, extra] = payload.split(' ');
    const kind = KINDS_BY_CODE.get(code ?? '');
    if (!kind || !origin || !teamId || !runId || extra !== undefined || origin === this.origin) return;
    if (kind === 'notifications') return this.wakeNotificationWorkers();
    this.notifyRunEvent(teamId, runId);
    if (kind === 'cancelled') this.abortInFlight(runId, 'cancelled');
    if (kind === 'queued') this.wakeWorkers();
  }

  /** Calls `listener` when another process queued a run. Returns an unsubscribe function. */
  onRunQueuedElsewhere(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => void this.queuedListeners.delete(listener);
  }

  /**
   * Wakes this process's idle workers: a run was queued elsewhere, or the notification connection came
   * (back) up and may have missed such a notice.
   */
  wakeWorkers(): void {
    for (const listener of [...this.queuedListeners]) listener();
  }

  /**
   * Calls `listener` when notifications were recorded: after the commit in this process, on the notice
   * from another. Returns an unsubscribe function.
   */
  onNotificationsRecorded(listener: () => void): () => void {
    this.notificationListeners.add(listener);
    return () => void this.notificationListeners.delete(listener);
  }

  /** Wakes this process's notification delivery workers (also when the notice connection came back up). */
  wakeNotificationWorkers(): void {
    for (const listener of [...this.notificationListeners]) listener();
  }

  registerInFlight(runId: string, controller: AbortController): () => void {
    this.inFlight.set(runId, controller);
    return () => {
      if (this.inFlight.get(runId) === controller) this.inFlight.delete(runId);
    };
  }

  /** Aborts the run's runner if it executes in this process; returns whether one was found. */
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
