/**
 * Executions of a run by a worker (engine/worker.ts) and their leases: claim → start → plan → finish,
 * or release on shutdown; heartbeats extend the lease and the sweeper (engine/sweeper.ts) recovers runs
 * whose lease expired. Every write after the claim is guarded by `lease_owner = this worker`, so a worker
 * that lost its lease can never overwrite what another did.
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import type { Timestamp } from '../db/tables';
import type { ConversationMessage, ConversationTurn, RunInput, RunStatusMessage, TokenUsage } from './contract';
import { groupMessages, hasUndeliveredFollowup, listFollowups, loadContentEvents, loadSteps, openInitialTurn, setFollowupsDelivered } from './conversation';
import { inRunTransaction, readEventsOfKind } from './events';
import { lockExecutingRun, lockRun, RunNotOwnedError, runUsage, type Db, type ExpiredLease, type RunRow, type RunsDeps, type StoredUsage } from './repository';
import { claimNextQueuedRun, requeuedNotice, transition, transitionInTransaction, type TransitionResult } from './transitions';
import { isFollowupResumeState, LEASED_STATES, type ExecutionOutcomeState } from './states';
import { teamScope } from '../db/scoped';

/** When a lease taken or extended now runs out (settings.windows.leaseSeconds). */
export const leaseExpiry = (ctx: Pick<ServerContext, 'settings'>, now: Date): Timestamp =>
  toTimestamp(new Date(now.getTime() + ctx.settings.windows.leaseSeconds * 1000));

export type ClaimDeps = Pick<ServerContext, 'db' | 'dialect' | 'clock' | 'settings' | 'runSignals' | 'notificationOutbox'>;

/**
 * SERVICE-WIDE: claims for `workerId` the oldest QUEUED run of the team whose turn it is, round-robin over
 * the teams under TEAM_MAX_CONCURRENT_RUNS (./transitions claimNextQueuedRun, ./fair-claim.ts).
 */
export function claimNextRun(ctx: ClaimDeps, workerId: string, now: Date = ctx.clock.now()): Promise<RunRow | undefined> {
  return claimNextQueuedRun(ctx, now, workerId, leaseExpiry(ctx, now), ctx.settings.teamMaxConcurrentRuns);
}

/** CLAIMED → INPROGRESS for the lease owner. */
export function startExecution(deps: RunsDeps, run: RunRow, leaseOwner: string, leaseExpiresAt: Timestamp, runner: string): Promise<TransitionResult> {
  return transition(deps, run.team_id, run.id, { from: ['CLAIMED'], to: 'INPROGRESS', leaseOwner, leaseExpiresAt, runner });
}

/** Extends the lease; false when this worker no longer holds it (cancelled, swept, finished). */
export async function extendLease(deps: RunsDeps, run: { id: string; team_id: string }, leaseOwner: string, leaseExpiresAt: Timestamp): Promise<boolean> {
  const row = await teamScope(deps.db, run.team_id)
    .updateTable('runs')
    .set({ lease_expires_at: leaseExpiresAt })
    .where('id', '=', run.id)
    .where('lease_owner', '=', leaseOwner)
    .where('state', 'in', [...LEASED_STATES])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface ExecutionPlan {
  input: RunInput;
  /** Resume: the conversation as it stood when the run last finished (minus the follow-ups in `input`). Initial: empty. */
  history: ConversationTurn[];
  /** The turn the runner's messages go to until it calls startTurn. */
  stepId: string;
}

/**
 * Works out what this execution is asked to do, inside the lease. A run is resumed when its log holds
 * a state event that ended an execution (FOLLOWUP_RESUME_STATES: finished, or BLOCKED on a question); the
 * input is then every follow-up accepted after that event or
 * never delivered. Follow-ups a lost earlier attempt had taken are handed out again (that attempt's
 * work is not part of the history).
 */
export async function planExecution(deps: RunsDeps, run: RunRow, leaseOwner: string): Promise<ExecutionPlan> {
  const now = deps.clock.now();
  return inRunTransaction(deps, run.team_id, run.id, async (tx) => {
    const locked = await lockExecutingRun(tx, run, leaseOwner);
    if (!locked) throw new RunNotOwnedError(run.id);
    let steps = await loadSteps(tx, run.team_id, run.id);
    if (steps.length === 0) {
      await openInitialTurn(tx, locked, new Date(locked.created_at));
      steps = await loadSteps(tx, run.team_id, run.id);
    }
    let finishedAt = 0; // seq of the last event that finished an execution
    for (const e of await readEventsOfKind(tx, run.team_id, run.id, 'state')) {
      if (isFollowupResumeState(e.data.state)) finishedAt = e.seq;
    }
    const content = await loadContentEvents(tx, run.team_id, run.id);
    const messageSeq = new Map<string, number>();
    for (const e of content) if (!messageSeq.has(e.data.message_id)) messageSeq.set(e.data.message_id, e.seq);

    const followups = await listFollowups(tx, run);
    const acceptedSinceFinish = (f: { id: string }) => (messageSeq.get(f.id) ?? Number.POSITIVE_INFINITY) > finishedAt;
    const current = followups.filter((f) => f.delivered_at === null || acceptedSinceFinish(f));
    await setFollowupsDelivered(
      tx,
      run,
      current.filter((f) => f.delivered_at !== null).map((f) => f.id),
      null,
    );
    // The output goes to the turn of the newest message in the input: the prompt's (turn 1), even when
    // follow-ups accepted since the start opened later turns; else the newest follow-up's, the last turn.
    if (finishedAt === 0) return { input: { kind: 'initial', prompt: locked.prompt }, history: [], stepId: steps[0]!.id };

    await setFollowupsDelivered(
      tx,
      run,
      current.map((f) => f.id),
      toTimestamp(now),
    );
    const inInput = new Set(current.map((f) => f.id));
    const earlier = groupMessages(content.filter((e) => e.seq <= finishedAt && !inInput.has(e.data.message_id)));
    const history: ConversationTurn[] = [];
    for (const step of steps) {
      const messages: ConversationMessage[] = earlier
        .filter((m) => m.stepId === step.id)
        .map((m) => ({ role: m.role, timestamp: m.timestamp, content: m.content }));
      if (messages.length > 0) history.push({ position: step.position, messages });
    }
    return { input: { kind: 'resume', messages: current.map((f) => f.message) }, history, stepId: steps[steps.length - 1]!.id };
  });
}

/**
 * Adds tokens an execution spent to the run's usage (which adds up over all its executions), whatever
 * the run's state is by now: the tokens were spent, so a run cancelled or swept right after a model call
 * still accounts for them. Not a transition: updated_at and the event log are left alone. In the same
 * transaction `alsoInTransaction` runs (the budgets' recorder grows the team's counter of this month and
 * model by as much), so the run's and the team's usage never disagree. Answers the run's usage now
 * (undefined: no such run of the team).
 */
export async function addRunUsage(
  deps: Pick<RunsDeps, 'db'>,
  teamId: string,
  runId: string,
  spent: TokenUsage,
  costMicros: number | undefined,
  alsoInTransaction: (tx: Db) => Promise<void>,
): Promise<StoredUsage | undefined> {
  return deps.db.transaction().execute(async (tx) => {
    const locked = await lockRun(tx, teamId, runId);
    if (!locked) return undefined;
    const before = runUsage(locked);
    const usage: StoredUsage = {
      prompt_tokens: (before?.prompt_tokens ?? 0) + spent.prompt_tokens,
      completion_tokens: (before?.completion_tokens ?? 0) + spent.completion_tokens,
      total_tokens: (before?.total_tokens ?? 0) + spent.total_tokens,
    };
    // A run's cost is kept once the server prices models (and from then on).
    if (costMicros !== undefined || before?.cost_micros !== undefined) usage.cost_micros = (before?.cost_micros ?? 0) + (costMicros ?? 0);
    await teamScope(tx, teamId)
      .updateTable('runs')
      .set({ usage: JSON.stringify(usage) })
      .where('id', '=', runId)
      .execute();
    await alsoInTransaction(tx);
    return usage;
  });
}

export type FinishResult =
  | { ok: true; run: RunRow; requeued: boolean }
  /** Cancelled, swept or released meanwhile: nothing was written. */
  | { ok: false; reason: 'not_owned' };

/**
 * INPROGRESS → SUCCEEDED / FAILED / ERROR / BLOCKED for the lease owner (never overwrites CANCELLED). A
 * SUCCEEDED/FAILED/BLOCKED run that still has undelivered follow-ups (accepted after the runner last looked
 * at its inbox) is re-queued in the same transaction, exactly as if they had arrived just after it finished.
 */
export async function finishExecution(
  deps: RunsDeps,
  run: RunRow,
  leaseOwner: string,
  outcome: { state: ExecutionOutcomeState; statusMessage?: RunStatusMessage },
): Promise<FinishResult> {
  const now = deps.clock.now();
  const result = await inRunTransaction(
    deps,
    run.team_id,
    run.id,
    async (tx): Promise<FinishResult> => {
      if (!(await lockExecutingRun(tx, run, leaseOwner))) return { ok: false, reason: 'not_owned' };
      const finished = await transitionInTransaction(tx, deps.notificationOutbox, now, run.team_id, run.id, {
        from: ['INPROGRESS'],
        to: outcome.state,
        leaseOwner,
        statusMessage: outcome.statusMessage ?? null,
      });
      if (!finished.ok) return { ok: false, reason: 'not_owned' };
      if (outcome.state === 'ERROR' || !(await hasUndeliveredFollowup(tx, run))) return { ok: true, run: finished.run, requeued: false };
      const requeued = await transitionInTransaction(tx, deps.notificationOutbox, now, run.team_id, run.id, {
        from: [outcome.state],
        to: 'QUEUED',
        claimCount: 0,
      });
      if (!requeued.ok) throw new Error(`run ${run.id} changed state while locked`);
      return { ok: true, run: requeued.run, requeued: true };
    },
    requeuedNotice,
  );
  if (result.ok && result.requeued) deps.notifyRunQueued?.();
  return result;
}

/**
 * Graceful shutdown: CLAIMED/INPROGRESS → QUEUED for the lease owner, lease cleared; the claim does
 * not count against the run's lease-recovery budget.
 */
export function releaseClaim(deps: RunsDeps, run: RunRow, leaseOwner: string): Promise<TransitionResult> {
  return transition(deps, run.team_id, run.id, { from: LEASED_STATES, to: 'QUEUED', leaseOwner, claimCount: { add: -1 } });
}

/**
 * Lease recovery (engine/sweeper.ts): the leased run goes back to QUEUED or to ERROR, but only if the lease
 * it holds is still the one that expired by `expiredBy`, so a heartbeat that lands in between wins.
 */
export function recoverExpiredLease(
  deps: RunsDeps,
  lease: ExpiredLease,
  expiredBy: Timestamp,
  outcome: { to: 'QUEUED' } | { to: 'ERROR'; statusMessage: RunStatusMessage },
): Promise<TransitionResult> {
  return transition(deps, lease.team_id, lease.id, { from: LEASED_STATES, leaseOwner: lease.lease_owner, leaseExpiredBy: expiredBy, ...outcome });
}
