/**
 * Every change of a run's state, from its first (QUEUED, at creation) to the last, goes through this
 * module: the REST API's cancel and follow-up, the worker's claim, start, finish and release
 * (./executions), the lease sweeper's recovery and the automations' failed start.
 *
 * - A change is one conditional UPDATE (`WHERE state IN (…)`, plus a lease-owner guard for workers) that
 *   also bumps `event_seq`, and its `state` event is written in the same transaction.
 * - Every change is team-scoped except the claim, which picks the next run of the team whose turn it is.
 * - In-process listeners are woken only after the commit.
 */
import { sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { toTimestamp } from '../clock';
import type { Database, Timestamp } from '../db/tables';
import { forUpdateSkipLocked, type Dialect } from '../db/dialect';
import type { RunStatusMessage } from './contract';
import { closeOpenTurns, addFollowup, openInitialTurn } from './conversation';
import { takeNextTeamTurn, underTeamCap } from './fair-claim';
import { appendEvent, findStateBefore, inRunTransaction, insertEvents, type StateEventData } from './events';
import { findRun, lockRun, normalizeRun, type Db, type RunRow, type RunsDeps } from './repository';
import type { RunNoticeKind } from './signals';
import type { NotifiedRun, RunStateChangeRecorder } from './state-changes';
import {
  CANCELLABLE_STATES,
  FOLLOWUP_RESUME_STATES,
  isFollowupLiveState,
  isFollowupResumeState,
  isLeasedState,
  isTerminalState,
  type RunState,
} from './states';
import { teamScope } from '../db/scoped';

export interface TransitionRequest {
  from: readonly RunState[];
  to: RunState;
  /** The run's status message after the transition; every transition sets it (default: none). */
  statusMessage?: RunStatusMessage | null;
  /** Only if this worker holds the lease. */
  leaseOwner?: string;
  /** Only if the lease expired at or before this time (sweeper). */
  leaseExpiredBy?: Timestamp;
  /** Only if the run has not changed since this time (updated_at; the blocked-run timeout). */
  unchangedSince?: Timestamp;
  /** The worker that takes the lease (the claim). */
  newLeaseOwner?: string;
  /** Lease expiry to set when moving to CLAIMED or INPROGRESS. */
  leaseExpiresAt?: Timestamp;
  claimCount?: number | { add: number };
  cancelRequestedAt?: Timestamp;
  runner?: string;
}

export type RunNotFound = { ok: false; reason: 'not_found' };

export type TransitionResult =
  | { ok: true; run: RunRow }
  | RunNotFound
  /** The run exists but its state (or lease) did not match: nothing changed. */
  | { ok: false; reason: 'unexpected_state'; run: RunRow };

type RunsUpdate = UpdateQueryBuilder<Database, 'runs', 'runs', UpdateResult>;

/**
 * The state change itself, on the row `target` picks: updates updated_at always, started_at on the first
 * INPROGRESS, completed_at on a terminal state (cleared otherwise), clears the lease outside the leased
 * states, closes open turns on a terminal state, appends the `state` event and records the change's
 * outbound notifications (../notifications/outbox.ts). Undefined when no row matched.
 */
async function changeState(
  tx: Db,
  outbox: RunStateChangeRecorder,
  now: Date,
  teamId: string,
  req: TransitionRequest,
  target: (q: RunsUpdate) => RunsUpdate,
): Promise<RunRow | undefined> {
  const ts = toTimestamp(now);
  const terminal = isTerminalState(req.to);
  let q = target(
    teamScope(tx, teamId)
      .updateTable('runs')
      .set((eb) => ({
        state: req.to,
        updated_at: ts,
        event_seq: eb('event_seq', '+', 1),
        status_message: req.statusMessage ? JSON.stringify(req.statusMessage) : null,
        completed_at: terminal ? ts : null,
        ...(req.to === 'INPROGRESS' ? { started_at: sql<string>`coalesce(started_at, ${ts})` } : {}),
        ...(isLeasedState(req.to)
          ? {
              ...(req.newLeaseOwner !== undefined ? { lease_owner: req.newLeaseOwner } : {}),
              ...(req.leaseExpiresAt !== undefined ? { lease_expires_at: req.leaseExpiresAt } : {}),
            }
          : { lease_owner: null, lease_expires_at: null }),
        ...(typeof req.claimCount === 'number' ? { claim_count: req.claimCount } : {}),
        ...(typeof req.claimCount === 'object' ? { claim_count: eb('claim_count', '+', req.claimCount.add) } : {}),
        ...(req.cancelRequestedAt !== undefined ? { cancel_requested_at: req.cancelRequestedAt } : {}),
        ...(req.runner !== undefined ? { runner: req.runner } : {}),
      })),
  ).where('state', 'in', [...req.from]);
  if (req.leaseOwner !== undefined) q = q.where('lease_owner', '=', req.leaseOwner);
  if (req.leaseExpiredBy !== undefined) q = q.where('lease_expires_at', '<=', req.leaseExpiredBy);
  if (req.unchangedSince !== undefined) q = q.where('updated_at', '<=', req.unchangedSince);
  const updated = await q
    .returningAll()
    .returning((eb) => outbox.hasReceivers(eb).as('team_has_subscriptions'))
    .executeTakeFirst();
  if (!updated) return undefined;
  const { team_has_subscriptions: teamHasSubscriptions, ...row } = updated;
  const run = normalizeRun(row);
  const data: StateEventData = { run_id: run.id, state: req.to, updated_at: ts };
  if (req.statusMessage) data.status_message = req.statusMessage;
  await insertEvents(tx, run, run.event_seq, [{ kind: 'state', data }]);
  if (terminal) await closeOpenTurns(tx, run, ts);
  await outbox.recordInTransaction(tx, {
    run,
    // pg answers a boolean, SQLite 0 or 1.
    teamHasSubscriptions: Boolean(teamHasSubscriptions),
    sequence: run.event_seq,
    // A transition from one state names it; from several, the log's previous state event says which.
    previousState: async () => (req.from.length === 1 ? req.from[0]! : await findStateBefore(tx, run, run.event_seq)),
  });
  return run;
}

/** The single conditional state change of one run, inside the caller's transaction. The caller notifies after commit. */
export async function transitionInTransaction(
  tx: Db,
  outbox: RunStateChangeRecorder,
  now: Date,
  teamId: string,
  runId: string,
  req: TransitionRequest,
): Promise<TransitionResult> {
  const run = await changeState(tx, outbox, now, teamId, req, (q) => q.where('id', '=', runId));
  if (run) return { ok: true, run };
  const current = await findRun({ db: tx }, teamId, runId);
  return current ? { ok: false, reason: 'unexpected_state', run: current } : { ok: false, reason: 'not_found' };
}

/** The notice of a change that may have re-queued the run (a follow-up, a finished execution). */
export const requeuedNotice = (result: { ok: boolean; requeued?: boolean }): RunNoticeKind => (result.ok && result.requeued ? 'queued' : 'events');

/** What other processes are told about a transition that happened (./signals.ts). */
const noticeOf = (to: RunState): RunNoticeKind => (to === 'QUEUED' ? 'queued' : to === 'CANCELLED' ? 'cancelled' : 'events');

/** A state change in its own transaction; wakes listeners (and workers on → QUEUED) after the commit. */
export async function transition(deps: RunsDeps, teamId: string, runId: string, req: TransitionRequest): Promise<TransitionResult> {
  const result = await inRunTransaction(
    deps,
    teamId,
    runId,
    (tx) => transitionInTransaction(tx, deps.notificationOutbox, deps.clock.now(), teamId, runId, req),
    (done) => (done.ok ? noticeOf(req.to) : 'events'),
  );
  if (result.ok && req.to === 'QUEUED') deps.notifyRunQueued?.();
  return result;
}

/** The team picked for a claim had nothing left to claim under its cap when locked: the claim rolls back. */
class TeamTurnLost extends Error {}

/**
 * SERVICE-WIDE (a worker serves every team): QUEUED → CLAIMED under `workerId`'s lease for the oldest
 * queued run of the team whose turn it is (./fair-claim.ts: round-robin, at most `teamCap` leased runs per
 * team); claim_count + 1. After taking the team's turn (its row locked): `WHERE id = (SELECT id … WHERE
 * state='QUEUED' AND team_id=… ORDER BY created_at, id LIMIT 1 [FOR UPDATE SKIP LOCKED]) AND state='QUEUED'
 * AND <team under its cap>`: SQLite has one writer, so the conditional UPDATE is atomic there; on
 * PostgreSQL SKIP LOCKED passes over rows other transactions hold and the repeated guards make a lost race
 * a miss, never a double claim. A miss rolls the turn back and tries the next team. Undefined when no team
 * has a run to claim.
 */
export async function claimNextQueuedRun(
  deps: Pick<RunsDeps, 'db' | 'runSignals' | 'notificationOutbox'> & { dialect: Dialect },
  now: Date,
  workerId: string,
  leaseExpiresAt: Timestamp,
  teamCap: number,
): Promise<RunRow | undefined> {
  const passedOver: string[] = [];
  for (;;) {
    let teamId: string | undefined;
    try {
      const claimed = await deps.db.transaction().execute(async (tx) => {
        teamId = await takeNextTeamTurn(tx, teamCap, passedOver, toTimestamp(now));
        if (teamId === undefined) return undefined;
        const team = teamId;
        const claim: TransitionRequest = { from: ['QUEUED'], to: 'CLAIMED', newLeaseOwner: workerId, leaseExpiresAt, claimCount: { add: 1 } };
        const run = await changeState(tx, deps.notificationOutbox, now, team, claim, (q) =>
          q
            .where('id', '=', (eb) =>
              forUpdateSkipLocked(
                teamScope(tx, team).subqueryFrom(eb, 'runs').select('id').where('state', '=', 'QUEUED').orderBy('created_at').orderBy('id').limit(1),
                deps.dialect,
              ),
            )
            .where(underTeamCap(team, teamCap)),
        );
        if (!run) throw new TeamTurnLost();
        await deps.runSignals.announceInTransaction(tx, 'events', run.team_id, run.id);
        return run;
      });
      if (claimed) deps.runSignals.notifyRunEvent(claimed.team_id, claimed.id);
      return claimed;
    } catch (err) {
      if (!(err instanceof TeamTurnLost) || teamId === undefined) throw err;
      passedOver.push(teamId);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Creation, cancel, follow-ups (the runs API)

/**
 * Call inside the transaction that inserted the run (state QUEUED): appends its first `state` event, opens
 * turn 1 with the prompt as the user's message (the worker does this itself for a run created without it),
 * and records the creation's outbound notifications (a change from no state).
 */
export async function recordRunCreated(tx: Db, outbox: RunStateChangeRecorder, run: NotifiedRun & Pick<RunRow, 'prompt'>): Promise<void> {
  const sequence = await appendEvent(tx, run, 'state', { run_id: run.id, state: run.state as RunState, updated_at: run.created_at });
  await openInitialTurn(tx, run, new Date(run.created_at));
  await outbox.recordInTransaction(tx, { run, sequence, previousState: async () => null });
}

export type CancelResult =
  | { ok: true; run: RunRow }
  | RunNotFound
  /** A state cancel does not apply to (PENDING, or terminal): the caller answers by `run.state`. */
  | { ok: false; reason: 'not_cancellable'; run: RunRow };

/**
 * POST …/cancel. A cancellable run → CANCELLED at once (lease cleared) and its runner is aborted: here at
 * once, in another process when the transaction's notice arrives (on SQLite, or if the notice is lost: at
 * that worker's next heartbeat). Any other state changes nothing.
 */
export async function requestCancel(deps: RunsDeps, teamId: string, runId: string): Promise<CancelResult> {
  const now = deps.clock.now();
  const result = await transition(deps, teamId, runId, {
    from: CANCELLABLE_STATES,
    to: 'CANCELLED',
    statusMessage: { message: 'run cancelled on request' },
    cancelRequestedAt: toTimestamp(now),
  });
  if (result.ok) {
    deps.runSignals.abortInFlight(runId, 'cancelled');
    return { ok: true, run: result.run };
  }
  if (result.reason === 'not_found') return result;
  return { ok: false, reason: 'not_cancellable', run: result.run };
}

export type FollowupResult =
  | { ok: true; run: RunRow; followupId: string; requeued: boolean }
  | RunNotFound
  /** CANCELLED: answer 409 conflict. */
  | { ok: false; reason: 'conflict'; run: RunRow };

/**
 * POST …/followups. Every accepted follow-up opens a new turn holding it (./conversation addFollowup).
 * Live runs get it at the runner's next turn; finished runs (SUCCEEDED, FAILED, ERROR) and BLOCKED runs
 * (the follow-up is the answer to the question) are re-queued so a worker resumes the same conversation;
 * CANCELLED → conflict.
 */
export async function acceptFollowup(deps: RunsDeps, teamId: string, runId: string, message: string): Promise<FollowupResult> {
  const now = deps.clock.now();
  const result = await inRunTransaction(
    deps,
    teamId,
    runId,
    async (tx): Promise<FollowupResult> => {
      const locked = await lockRun(tx, teamId, runId);
      if (!locked) return { ok: false, reason: 'not_found' };
      const resume = isFollowupResumeState(locked.state);
      if (!resume && !isFollowupLiveState(locked.state)) return { ok: false, reason: 'conflict', run: locked };

      const followupId = await addFollowup(tx, locked, message, now);
      if (resume) {
        // claim_count restarts: the lease-recovery budget is per execution.
        const requeued = await transitionInTransaction(tx, deps.notificationOutbox, now, teamId, runId, {
          from: FOLLOWUP_RESUME_STATES,
          to: 'QUEUED',
          claimCount: 0,
        });
        if (!requeued.ok) throw new Error(`run ${runId} changed state while locked`);
        return { ok: true, run: requeued.run, followupId, requeued: true };
      }
      await teamScope(tx, teamId)
        .updateTable('runs')
        .set({ updated_at: toTimestamp(now) })
        .where('id', '=', runId)
        .execute();
      const run = await findRun({ db: tx }, teamId, runId);
      return { ok: true, run: run!, followupId, requeued: false };
    },
    requeuedNotice,
  );
  if (result.ok && result.requeued) deps.notifyRunQueued?.();
  return result;
}
