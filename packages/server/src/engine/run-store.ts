/**
 * The run store: the ONLY code that changes a run's state, and the owner of the per-run event log
 * (`run_events`, which feeds SSE and the conversation), the turns (`run_steps`) and the follow-up inbox
 * (`run_followups`).
 *
 * Rules every function here keeps:
 * - every query carries team_id (the worker claim and the sweeper's scan live in claim.ts / sweeper.ts);
 * - a state change is one conditional UPDATE (`WHERE state IN (…)`, plus a lease-owner guard for
 *   workers) that also bumps `event_seq`, and its `state` event is written in the same transaction;
 * - event numbers come from `UPDATE runs SET event_seq = event_seq + n … RETURNING event_seq`, which
 *   serialises writers of one run on its row lock (PostgreSQL) or the single connection (SQLite);
 * - in-process listeners are woken only after the commit.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { toTimestamp, type Clock } from '../clock';
import { newSortableId } from '../crypto/ids';
import type { Database, RunsTable, Timestamp } from '../db/tables';
import { abortInFlight, notifyRunEvent } from './run-signals';
import type {
  ContentBlock,
  ConversationMessage,
  ConversationTurn,
  ConversationWriter,
  FollowupInbox,
  RunInput,
  RunRole,
  RunStatusMessage,
  TokenUsage,
} from './runner';

// ---------------------------------------------------------------------------------------------------
// States

export const RUN_STATES = [
  'QUEUED',
  'PENDING',
  'CLAIMED',
  'INPROGRESS',
  'SUCCEEDED',
  'FAILED',
  'BLOCKED',
  'ERROR',
  'CANCELLED',
] as const;
export type RunState = (typeof RUN_STATES)[number];

export const TERMINAL_STATES: readonly RunState[] = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
export const isTerminalState = (state: string): boolean => (TERMINAL_STATES as readonly string[]).includes(state);

/** States POST …/cancel moves to CANCELLED. */
export const CANCELLABLE_STATES: readonly RunState[] = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', 'BLOCKED'];
/** States in which a follow-up is queued for the current execution. */
export const FOLLOWUP_LIVE_STATES: readonly RunState[] = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS', 'BLOCKED'];
/** Finished states a follow-up re-queues (the run resumes the same conversation). */
export const FOLLOWUP_RESUME_STATES: readonly RunState[] = ['SUCCEEDED', 'FAILED', 'ERROR'];
/** States in which a worker holds a lease. */
const LEASED_STATES: readonly RunState[] = ['CLAIMED', 'INPROGRESS'];

// ---------------------------------------------------------------------------------------------------
// Types

/** What the store needs; a ServerContext satisfies it. `notifyRunQueued` (when present) wakes workers after a re-queue. */
export interface RunStoreDeps {
  db: Kysely<Database>;
  clock: Clock;
  dialect?: unknown;
  notifyRunQueued?: () => void;
}

/** A Kysely instance or a transaction of one (a Transaction<Database> is a Kysely<Database>). */
export type Db = Kysely<Database>;

export type RunRow = Selectable<RunsTable>;

export interface StateEventData {
  run_id: string;
  state: RunState;
  updated_at: Timestamp;
  status_message?: RunStatusMessage;
}

export interface ContentEventData {
  run_id: string;
  step_id: string;
  message_id: string;
  role: RunRole;
  timestamp: Timestamp;
  block: ContentBlock;
}

export type RunEvent =
  | { seq: number; kind: 'state'; data: StateEventData; created_at: Timestamp }
  | { seq: number; kind: 'content'; data: ContentEventData; created_at: Timestamp };

/** Oz ConversationResponse. */
export interface ConversationResponse {
  conversation_id: string;
  steps: ConversationStep[];
}
export interface ConversationStep {
  id: string;
  description?: string;
  summary?: string;
  started_at: Timestamp;
  completed_at?: Timestamp;
  messages: ConversationResponseMessage[];
  steps: ConversationStep[];
}
export interface ConversationResponseMessage {
  message_ids?: string[];
  role: RunRole;
  timestamp: Timestamp;
  content: ContentBlock[];
}

export type RunNotFound = { ok: false; reason: 'not_found' };

export type TransitionResult =
  | { ok: true; run: RunRow }
  | RunNotFound
  /** The run exists but its state (or lease) did not match: nothing changed. */
  | { ok: false; reason: 'unexpected_state'; run: RunRow };

export type CancelResult =
  | { ok: true; run: RunRow; alreadyCancelled: boolean }
  | RunNotFound
  /** SUCCEEDED, FAILED or ERROR: answer 409 conflict. */
  | { ok: false; reason: 'conflict'; run: RunRow };

export type FollowupResult =
  | { ok: true; run: RunRow; followupId: string; requeued: boolean }
  | RunNotFound
  /** CANCELLED: answer 409 conflict. */
  | { ok: false; reason: 'conflict'; run: RunRow };

/** Thrown by writes of a worker that no longer owns the run (cancelled, lease lost or finished). */
export class RunNotOwnedError extends Error {
  override readonly name = 'RunNotOwnedError';
  constructor(readonly runId: string) {
    super(`run ${runId} is no longer executed by this worker`);
  }
}

export const conversationIdFor = (runId: string): string => `conv_${runId}`;

const json = (value: unknown): string => JSON.stringify(value);
const parseJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** pg answers BIGINT columns as strings; every integer of a run row is normalised here. */
export function normalizeRun(row: RunRow): RunRow {
  return { ...row, event_seq: Number(row.event_seq), claim_count: Number(row.claim_count) };
}

export const runStatusMessage = (run: Pick<RunRow, 'status_message'>): RunStatusMessage | null => parseJson<RunStatusMessage>(run.status_message);
export const runUsage = (run: Pick<RunRow, 'usage'>): TokenUsage | null => parseJson<TokenUsage>(run.usage);

/** Runs `fn` in a transaction and wakes the run's in-process listeners after the commit. */
async function inRunTransaction<T>(deps: RunStoreDeps, runId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(fn);
  notifyRunEvent(runId);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Reads

export async function findRun(db: Db | RunStoreDeps, teamId: string, runId: string): Promise<RunRow | undefined> {
  const k = 'db' in db ? db.db : db;
  const row = await k.selectFrom('runs').selectAll().where('team_id', '=', teamId).where('id', '=', runId).executeTakeFirst();
  return row ? normalizeRun(row) : undefined;
}

/**
 * Takes the run's row lock for the rest of the transaction (PostgreSQL; SQLite's single writer
 * serialises anyway) with a no-op UPDATE, so check-then-write sequences of two writers cannot interleave.
 */
export async function lockRun(
  tx: Db,
  teamId: string,
  runId: string,
  guard: { leaseOwner?: string; states?: readonly RunState[] } = {},
): Promise<RunRow | undefined> {
  let q = tx
    .updateTable('runs')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('team_id', '=', teamId)
    .where('id', '=', runId);
  if (guard.leaseOwner !== undefined) q = q.where('lease_owner', '=', guard.leaseOwner);
  if (guard.states) q = q.where('state', 'in', [...guard.states]);
  const row = await q.returningAll().executeTakeFirst();
  return row ? normalizeRun(row) : undefined;
}

/** Events after `afterSeq` in order (SSE, Last-Event-ID). */
export async function readEvents(
  deps: RunStoreDeps,
  teamId: string,
  runId: string,
  afterSeq = 0,
  limit = 500,
): Promise<RunEvent[]> {
  const rows = await deps.db
    .selectFrom('run_events')
    .select(['seq', 'kind', 'data', 'created_at'])
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), kind: r.kind, data: JSON.parse(r.data), created_at: r.created_at }) as RunEvent);
}

interface StepRow {
  id: string;
  position: number;
  description: string | null;
  summary: string | null;
  started_at: Timestamp;
  completed_at: Timestamp | null;
}

async function loadSteps(tx: Db, teamId: string, runId: string): Promise<StepRow[]> {
  const rows = await tx
    .selectFrom('run_steps')
    .select(['id', 'position', 'description', 'summary', 'started_at', 'completed_at'])
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...r, position: Number(r.position) }));
}

async function loadContentEvents(tx: Db, teamId: string, runId: string): Promise<Array<{ seq: number; data: ContentEventData }>> {
  const rows = await tx
    .selectFrom('run_events')
    .select(['seq', 'data'])
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .where('kind', '=', 'content')
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), data: JSON.parse(r.data) as ContentEventData }));
}

interface GroupedMessage {
  stepId: string;
  messageId: string;
  role: RunRole;
  timestamp: Timestamp;
  firstSeq: number;
  content: ContentBlock[];
}

/** Content events → messages (blocks grouped by message_id, in order of their first block). */
function groupMessages(events: Array<{ seq: number; data: ContentEventData }>): GroupedMessage[] {
  const byId = new Map<string, GroupedMessage>();
  const ordered: GroupedMessage[] = [];
  for (const { seq, data } of events) {
    let message = byId.get(data.message_id);
    if (!message) {
      message = { stepId: data.step_id, messageId: data.message_id, role: data.role, timestamp: data.timestamp, firstSeq: seq, content: [] };
      byId.set(data.message_id, message);
      ordered.push(message);
    }
    message.content.push(data.block);
  }
  return ordered;
}

/** GET …/conversation: Oz ConversationResponse; undefined when the team has no such run. */
export async function readConversation(deps: RunStoreDeps, teamId: string, runId: string): Promise<ConversationResponse | undefined> {
  return deps.db.transaction().execute(async (tx) => {
    const run = await tx.selectFrom('runs').select('id').where('team_id', '=', teamId).where('id', '=', runId).executeTakeFirst();
    if (!run) return undefined;
    const steps = await loadSteps(tx, teamId, runId);
    const messages = groupMessages(await loadContentEvents(tx, teamId, runId));
    return {
      conversation_id: conversationIdFor(runId),
      steps: steps.map((step) => ({
        id: step.id,
        ...(step.description !== null ? { description: step.description } : {}),
        ...(step.summary !== null ? { summary: step.summary } : {}),
        started_at: step.started_at,
        ...(step.completed_at !== null ? { completed_at: step.completed_at } : {}),
        messages: messages
          .filter((m) => m.stepId === step.id)
          .map((m) => ({ message_ids: [m.messageId], role: m.role, timestamp: m.timestamp, content: m.content })),
        steps: [],
      })),
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// The event log

type EventInput = { kind: 'state'; data: StateEventData } | { kind: 'content'; data: ContentEventData };

const eventTime = (e: EventInput): Timestamp => (e.kind === 'state' ? e.data.updated_at : e.data.timestamp);

/**
 * Reserves `count` event numbers for the run and returns the LAST one (the reserved range is
 * last-count+1 … last), or undefined when the run (or the guard) does not match.
 */
async function reserveEventSeq(
  tx: Db,
  run: { id: string; team_id: string },
  count: number,
  guard: { leaseOwner?: string; states?: readonly RunState[] } = {},
): Promise<number | undefined> {
  let q = tx
    .updateTable('runs')
    .set((eb) => ({ event_seq: eb('event_seq', '+', count) }))
    .where('team_id', '=', run.team_id)
    .where('id', '=', run.id);
  if (guard.leaseOwner !== undefined) q = q.where('lease_owner', '=', guard.leaseOwner);
  if (guard.states) q = q.where('state', 'in', [...guard.states]);
  const row = await q.returning('event_seq').executeTakeFirst();
  return row ? Number(row.event_seq) : undefined;
}

async function insertEvents(tx: Db, run: { id: string; team_id: string }, lastSeq: number, events: EventInput[]): Promise<void> {
  if (events.length === 0) return;
  const first = lastSeq - events.length + 1;
  await tx
    .insertInto('run_events')
    .values(
      events.map((e, i) => ({
        run_id: run.id,
        team_id: run.team_id,
        seq: first + i,
        kind: e.kind,
        data: json(e.data),
        created_at: eventTime(e),
      })),
    )
    .execute();
}

/**
 * Appends one event inside the caller's transaction and returns its number. The caller calls
 * `notifyRunEvent(run.id)` (run-signals.ts) after its commit.
 */
export async function appendEvent(
  tx: Db,
  run: { id: string; team_id: string },
  kind: 'state' | 'content',
  data: StateEventData | ContentEventData,
): Promise<number> {
  const event = { kind, data } as EventInput;
  const seq = await reserveEventSeq(tx, run, 1);
  if (seq === undefined) throw new Error(`run ${run.id} not found`);
  await insertEvents(tx, run, seq, [event]);
  return seq;
}

// ---------------------------------------------------------------------------------------------------
// Transitions

export interface TransitionRequest {
  from: readonly RunState[];
  to: RunState;
  /** The run's status message after the transition; every transition sets it (default: none). */
  statusMessage?: RunStatusMessage | null;
  /** Only if this worker holds the lease. */
  leaseOwner?: string;
  /** Only if the lease expired at or before this time (sweeper). */
  leaseExpiredBy?: Timestamp;
  /** Lease expiry to set when moving to CLAIMED or INPROGRESS. */
  leaseExpiresAt?: Timestamp;
  claimCount?: number | { add: number };
  cancelRequestedAt?: Timestamp;
  runner?: string;
}

/**
 * The single conditional state change, inside the caller's transaction: updates updated_at always,
 * started_at on the first INPROGRESS, completed_at on a terminal state (cleared otherwise), clears the
 * lease outside CLAIMED/INPROGRESS, completes open steps on a terminal state, and appends the `state`
 * event. The caller notifies after commit.
 */
export async function transitionInTransaction(
  tx: Db,
  now: Date,
  teamId: string,
  runId: string,
  req: TransitionRequest,
): Promise<TransitionResult> {
  const ts = toTimestamp(now);
  const terminal = isTerminalState(req.to);
  const leased = LEASED_STATES.includes(req.to);
  let q = tx
    .updateTable('runs')
    .set((eb) => ({
      state: req.to,
      updated_at: ts,
      event_seq: eb('event_seq', '+', 1),
      status_message: req.statusMessage ? json(req.statusMessage) : null,
      completed_at: terminal ? ts : null,
      ...(req.to === 'INPROGRESS' ? { started_at: sql<string>`coalesce(started_at, ${ts})` } : {}),
      ...(leased
        ? req.leaseExpiresAt !== undefined
          ? { lease_expires_at: req.leaseExpiresAt }
          : {}
        : { lease_owner: null, lease_expires_at: null }),
      ...(typeof req.claimCount === 'number' ? { claim_count: req.claimCount } : {}),
      ...(typeof req.claimCount === 'object' ? { claim_count: eb('claim_count', '+', req.claimCount.add) } : {}),
      ...(req.cancelRequestedAt !== undefined ? { cancel_requested_at: req.cancelRequestedAt } : {}),
      ...(req.runner !== undefined ? { runner: req.runner } : {}),
    }))
    .where('team_id', '=', teamId)
    .where('id', '=', runId)
    .where('state', 'in', [...req.from]);
  if (req.leaseOwner !== undefined) q = q.where('lease_owner', '=', req.leaseOwner);
  if (req.leaseExpiredBy !== undefined) q = q.where('lease_expires_at', '<=', req.leaseExpiredBy);
  const updated = await q.returningAll().executeTakeFirst();
  if (!updated) {
    const current = await findRun(tx, teamId, runId);
    return current ? { ok: false, reason: 'unexpected_state', run: current } : { ok: false, reason: 'not_found' };
  }
  const run = normalizeRun(updated);
  const data: StateEventData = { run_id: run.id, state: req.to, updated_at: ts };
  if (req.statusMessage) data.status_message = req.statusMessage;
  await insertEvents(tx, run, run.event_seq, [{ kind: 'state', data }]);
  if (terminal) {
    await tx
      .updateTable('run_steps')
      .set({ completed_at: ts })
      .where('team_id', '=', teamId)
      .where('run_id', '=', runId)
      .where('completed_at', 'is', null)
      .execute();
  }
  return { ok: true, run };
}

/** A state change in its own transaction; wakes listeners (and workers on → QUEUED) after the commit. */
export async function transition(deps: RunStoreDeps, teamId: string, runId: string, req: TransitionRequest): Promise<TransitionResult> {
  const result = await inRunTransaction(deps, runId, (tx) => transitionInTransaction(tx, deps.clock.now(), teamId, runId, req));
  if (result.ok && req.to === 'QUEUED') deps.notifyRunQueued?.();
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Creation, cancel, follow-ups (called by the runs API)

/**
 * Call inside the transaction that inserted the run (state QUEUED): appends its first `state` event and
 * opens turn 1 with the prompt as the user's message. (The worker does the latter itself for a run
 * created without it.)
 */
export async function recordRunCreated(tx: Db, run: Pick<RunRow, 'id' | 'team_id' | 'prompt' | 'state' | 'created_at'>): Promise<void> {
  const at = new Date(run.created_at);
  const state: EventInput = { kind: 'state', data: { run_id: run.id, state: run.state as RunState, updated_at: run.created_at } };
  const lastSeq = await reserveEventSeq(tx, run, 1);
  if (lastSeq === undefined) throw new Error(`run ${run.id} not found`);
  await insertEvents(tx, run, lastSeq, [state]);
  await openInitialTurn(tx, run, at);
}

async function openInitialTurn(tx: Db, run: Pick<RunRow, 'id' | 'team_id' | 'prompt'>, at: Date): Promise<string> {
  const stepId = await openStep(tx, run, at, null);
  await appendMessage(tx, run, stepId, 'user', [{ type: 'text', text: run.prompt }], at, newSortableId('msg', at));
  return stepId;
}

/**
 * POST …/cancel. QUEUED/PENDING/CLAIMED/INPROGRESS/BLOCKED → CANCELLED at once (lease cleared) and the
 * in-process runner is aborted; CANCELLED answers again (idempotent); SUCCEEDED/FAILED/ERROR → conflict.
 * A worker in another process notices on its next heartbeat.
 */
export async function requestCancel(deps: RunStoreDeps, teamId: string, runId: string): Promise<CancelResult> {
  const now = deps.clock.now();
  const result = await transition(deps, teamId, runId, {
    from: CANCELLABLE_STATES,
    to: 'CANCELLED',
    statusMessage: { message: 'run cancelled on request' },
    cancelRequestedAt: toTimestamp(now),
  });
  if (result.ok) {
    abortInFlight(runId, 'cancelled');
    return { ok: true, run: result.run, alreadyCancelled: false };
  }
  if (result.reason === 'not_found') return result;
  if (result.run.state === 'CANCELLED') return { ok: true, run: result.run, alreadyCancelled: true };
  return { ok: false, reason: 'conflict', run: result.run };
}

/**
 * POST …/followups. Every accepted follow-up opens a new turn holding it as the user's message (its
 * message_id is the follow-up id) and waits in the run's inbox. Live runs (QUEUED, PENDING, CLAIMED,
 * INPROGRESS, BLOCKED) get it at the runner's next turn; SUCCEEDED, FAILED and ERROR runs are re-queued so
 * a worker resumes the same conversation; CANCELLED → conflict.
 */
export async function acceptFollowup(deps: RunStoreDeps, teamId: string, runId: string, message: string): Promise<FollowupResult> {
  const now = deps.clock.now();
  const ts = toTimestamp(now);
  const result = await inRunTransaction(deps, runId, async (tx): Promise<FollowupResult> => {
    const locked = await lockRun(tx, teamId, runId);
    if (!locked) return { ok: false, reason: 'not_found' };
    const state = locked.state as RunState;
    const resume = FOLLOWUP_RESUME_STATES.includes(state);
    if (!resume && !FOLLOWUP_LIVE_STATES.includes(state)) return { ok: false, reason: 'conflict', run: locked };

    const followupId = newSortableId('fup', now);
    await tx.insertInto('run_followups').values({ id: followupId, run_id: runId, team_id: teamId, message, created_at: ts, delivered_at: null }).execute();
    const stepId = await openStep(tx, locked, now, null);
    await appendMessage(tx, locked, stepId, 'user', [{ type: 'text', text: message }], now, followupId);

    if (resume) {
      // claim_count restarts: the lease-recovery budget is per execution.
      const requeued = await transitionInTransaction(tx, now, teamId, runId, { from: FOLLOWUP_RESUME_STATES, to: 'QUEUED', claimCount: 0 });
      if (!requeued.ok) throw new Error(`run ${runId} changed state while locked`);
      return { ok: true, run: requeued.run, followupId, requeued: true };
    }
    await tx.updateTable('runs').set({ updated_at: ts }).where('team_id', '=', teamId).where('id', '=', runId).execute();
    const run = await findRun(tx, teamId, runId);
    return { ok: true, run: run!, followupId, requeued: false };
  });
  if (result.ok && result.requeued) deps.notifyRunQueued?.();
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Turns and messages

/** Opens the run's next step (position = last + 1). Caller holds the run's row lock. */
async function openStep(tx: Db, run: { id: string; team_id: string }, at: Date, description: string | null): Promise<string> {
  const last = await tx
    .selectFrom('run_steps')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('team_id', '=', run.team_id)
    .where('run_id', '=', run.id)
    .executeTakeFirst();
  const position = Number(last?.position ?? 0) + 1;
  const id = newSortableId('step', at);
  await tx
    .insertInto('run_steps')
    .values({ id, run_id: run.id, team_id: run.team_id, position, description, summary: null, started_at: toTimestamp(at), completed_at: null })
    .execute();
  return id;
}

/** Records one message as one `content` event per block; returns false when the guard did not match. */
async function appendMessage(
  tx: Db,
  run: { id: string; team_id: string },
  stepId: string,
  role: RunRole,
  blocks: ContentBlock[],
  at: Date,
  messageId: string,
  guard?: { leaseOwner: string },
): Promise<boolean> {
  if (blocks.length === 0) return true;
  const timestamp = toTimestamp(at);
  const lastSeq = await reserveEventSeq(tx, run, blocks.length, guard ? { leaseOwner: guard.leaseOwner, states: ['INPROGRESS'] } : {});
  if (lastSeq === undefined) return false;
  await insertEvents(
    tx,
    run,
    lastSeq,
    blocks.map((block) => ({ kind: 'content' as const, data: { run_id: run.id, step_id: stepId, message_id: messageId, role, timestamp, block } })),
  );
  return true;
}

/**
 * The ConversationWriter a worker hands its runner. Writes only while this worker still executes the
 * run (state INPROGRESS and lease owner = worker); otherwise throws RunNotOwnedError.
 */
export function createConversationWriter(
  deps: RunStoreDeps,
  run: { id: string; team_id: string },
  initialStepId: string,
  leaseOwner: string,
): ConversationWriter & { readonly currentStepId: string } {
  let currentStepId = initialStepId;
  return {
    get currentStepId() {
      return currentStepId;
    },
    async append(role, content) {
      if (content.length === 0) return;
      const now = deps.clock.now();
      const ok = await inRunTransaction(deps, run.id, (tx) => appendMessage(tx, run, currentStepId, role, content, now, newSortableId('msg', now), { leaseOwner }));
      if (!ok) throw new RunNotOwnedError(run.id);
    },
    async startTurn(description) {
      const now = deps.clock.now();
      currentStepId = await inRunTransaction(deps, run.id, async (tx) => {
        const locked = await lockRun(tx, run.team_id, run.id, { leaseOwner, states: ['INPROGRESS'] });
        if (!locked) throw new RunNotOwnedError(run.id);
        const steps = await loadSteps(tx, run.team_id, run.id);
        const current = steps.find((s) => s.id === currentStepId);
        const latest = steps[steps.length - 1];
        // Follow-ups opened their own turn when accepted: continue in the newest of them; else open one.
        let next: string;
        if (latest && current && latest.position > current.position) {
          next = latest.id;
          if (description !== undefined && latest.description === null) {
            await tx.updateTable('run_steps').set({ description }).where('team_id', '=', run.team_id).where('id', '=', next).execute();
          }
        } else {
          next = await openStep(tx, run, now, description ?? null);
        }
        const nextPosition = steps.find((s) => s.id === next)?.position ?? Number.POSITIVE_INFINITY;
        await tx
          .updateTable('run_steps')
          .set({ completed_at: toTimestamp(now) })
          .where('team_id', '=', run.team_id)
          .where('run_id', '=', run.id)
          .where('completed_at', 'is', null)
          .where('position', '<', nextPosition)
          .where('id', '!=', next)
          .execute();
        return next;
      });
    },
  };
}

/** The follow-up inbox of one execution: each undelivered follow-up is returned once, oldest first. */
export function createFollowupInbox(deps: RunStoreDeps, run: { id: string; team_id: string }): FollowupInbox {
  return {
    async take() {
      // One statement (no read-then-write transaction, which a second SQLite connection could invalidate).
      const rows = await deps.db
        .updateTable('run_followups')
        .set({ delivered_at: toTimestamp(deps.clock.now()) })
        .where('team_id', '=', run.team_id)
        .where('run_id', '=', run.id)
        .where('delivered_at', 'is', null)
        .returning(['id', 'message', 'created_at'])
        .execute();
      rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
      return rows.map((r) => r.message);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Executions (called by the worker; every write is guarded by the worker's lease)

/** CLAIMED → INPROGRESS for the lease owner. */
export function startExecution(
  deps: RunStoreDeps,
  run: RunRow,
  leaseOwner: string,
  leaseExpiresAt: Timestamp,
  runner: string,
): Promise<TransitionResult> {
  return transition(deps, run.team_id, run.id, { from: ['CLAIMED'], to: 'INPROGRESS', leaseOwner, leaseExpiresAt, runner });
}

/** Extends the lease; false when this worker no longer holds it (cancelled, swept, finished). */
export async function extendLease(deps: RunStoreDeps, run: { id: string; team_id: string }, leaseOwner: string, leaseExpiresAt: Timestamp): Promise<boolean> {
  const row = await deps.db
    .updateTable('runs')
    .set({ lease_expires_at: leaseExpiresAt })
    .where('team_id', '=', run.team_id)
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
 * a finished (FOLLOWUP_RESUME_STATES) state event; the input is then every follow-up accepted after that event or
 * never delivered. Follow-ups a lost earlier attempt had taken are handed out again (that attempt's
 * work is not part of the history).
 */
export async function planExecution(deps: RunStoreDeps, run: RunRow, leaseOwner: string): Promise<ExecutionPlan> {
  const now = deps.clock.now();
  return inRunTransaction(deps, run.id, async (tx) => {
    const locked = await lockRun(tx, run.team_id, run.id, { leaseOwner, states: ['INPROGRESS'] });
    if (!locked) throw new RunNotOwnedError(run.id);
    let steps = await loadSteps(tx, run.team_id, run.id);
    if (steps.length === 0) {
      await openInitialTurn(tx, locked, new Date(locked.created_at));
      steps = await loadSteps(tx, run.team_id, run.id);
    }
    const stateEvents = await tx
      .selectFrom('run_events')
      .select(['seq', 'data'])
      .where('team_id', '=', run.team_id)
      .where('run_id', '=', run.id)
      .where('kind', '=', 'state')
      .orderBy('seq')
      .execute();
    let finishedAt = 0; // seq of the last event that finished an execution
    for (const e of stateEvents) {
      const state = (JSON.parse(e.data) as StateEventData).state;
      if (FOLLOWUP_RESUME_STATES.includes(state)) finishedAt = Number(e.seq);
    }
    const content = await loadContentEvents(tx, run.team_id, run.id);
    const messageSeq = new Map<string, number>();
    for (const e of content) if (!messageSeq.has(e.data.message_id)) messageSeq.set(e.data.message_id, e.seq);

    const followups = await tx
      .selectFrom('run_followups')
      .select(['id', 'message', 'delivered_at'])
      .where('team_id', '=', run.team_id)
      .where('run_id', '=', run.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const acceptedSinceFinish = (f: { id: string }) => (messageSeq.get(f.id) ?? Number.POSITIVE_INFINITY) > finishedAt;
    const current = followups.filter((f) => f.delivered_at === null || acceptedSinceFinish(f));
    const redeliver = current.filter((f) => f.delivered_at !== null).map((f) => f.id);
    if (redeliver.length > 0) {
      await tx.updateTable('run_followups').set({ delivered_at: null }).where('team_id', '=', run.team_id).where('id', 'in', redeliver).execute();
    }
    const stepId = steps[steps.length - 1]!.id;
    if (finishedAt === 0) return { input: { kind: 'initial', prompt: locked.prompt }, history: [], stepId };

    if (current.length > 0) {
      await tx
        .updateTable('run_followups')
        .set({ delivered_at: toTimestamp(now) })
        .where('team_id', '=', run.team_id)
        .where('id', 'in', current.map((f) => f.id))
        .execute();
    }
    const inInput = new Set(current.map((f) => f.id));
    const earlier = groupMessages(content.filter((e) => e.seq <= finishedAt && !inInput.has(e.data.message_id)));
    const history: ConversationTurn[] = [];
    for (const step of steps) {
      const messages: ConversationMessage[] = earlier
        .filter((m) => m.stepId === step.id)
        .map((m) => ({ role: m.role, timestamp: m.timestamp, content: m.content }));
      if (messages.length > 0) history.push({ position: step.position, messages });
    }
    return { input: { kind: 'resume', messages: current.map((f) => f.message) }, history, stepId };
  });
}

export type FinishResult =
  | { ok: true; run: RunRow; requeued: boolean }
  /** Cancelled, swept or released meanwhile: nothing was written. */
  | { ok: false; reason: 'not_owned' };

/**
 * Adds tokens an execution spent to the run's usage (which adds up over all its executions), whatever
 * the run's state is by now: the tokens were spent, so a run cancelled or swept right after a model call
 * still accounts for them. Not a transition: updated_at and the event log are left alone.
 */
export async function addRunUsage(deps: RunStoreDeps, teamId: string, runId: string, spent: TokenUsage): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const locked = await lockRun(tx, teamId, runId);
    if (!locked) return;
    const before = runUsage(locked);
    const usage: TokenUsage = {
      prompt_tokens: (before?.prompt_tokens ?? 0) + spent.prompt_tokens,
      completion_tokens: (before?.completion_tokens ?? 0) + spent.completion_tokens,
      total_tokens: (before?.total_tokens ?? 0) + spent.total_tokens,
    };
    await tx.updateTable('runs').set({ usage: json(usage) }).where('team_id', '=', teamId).where('id', '=', runId).execute();
  });
}

/**
 * INPROGRESS → SUCCEEDED / FAILED / ERROR for the lease owner (never overwrites CANCELLED). A
 * SUCCEEDED/FAILED run that still has undelivered follow-ups (accepted after the runner last looked at
 * its inbox) is re-queued in the same transaction, exactly as if they had arrived just after it finished.
 */
export async function finishExecution(
  deps: RunStoreDeps,
  run: RunRow,
  leaseOwner: string,
  outcome: { state: 'SUCCEEDED' | 'FAILED' | 'ERROR'; statusMessage?: RunStatusMessage },
): Promise<FinishResult> {
  const now = deps.clock.now();
  const result = await inRunTransaction(deps, run.id, async (tx): Promise<FinishResult> => {
    const locked = await lockRun(tx, run.team_id, run.id, { leaseOwner, states: ['INPROGRESS'] });
    if (!locked) return { ok: false, reason: 'not_owned' };
    const finished = await transitionInTransaction(tx, now, run.team_id, run.id, {
      from: ['INPROGRESS'],
      to: outcome.state,
      leaseOwner,
      statusMessage: outcome.statusMessage ?? null,
    });
    if (!finished.ok) return { ok: false, reason: 'not_owned' };
    if (outcome.state === 'ERROR') return { ok: true, run: finished.run, requeued: false };
    const pending = await tx
      .selectFrom('run_followups')
      .select('id')
      .where('team_id', '=', run.team_id)
      .where('run_id', '=', run.id)
      .where('delivered_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!pending) return { ok: true, run: finished.run, requeued: false };
    const requeued = await transitionInTransaction(tx, now, run.team_id, run.id, { from: [outcome.state], to: 'QUEUED', claimCount: 0 });
    if (!requeued.ok) throw new Error(`run ${run.id} changed state while locked`);
    return { ok: true, run: requeued.run, requeued: true };
  });
  if (result.ok && result.requeued) deps.notifyRunQueued?.();
  return result;
}

/**
 * Graceful shutdown: CLAIMED/INPROGRESS → QUEUED for the lease owner, lease cleared; the claim does
 * not count against the run's lease-recovery budget.
 */
export function releaseClaim(deps: RunStoreDeps, run: RunRow, leaseOwner: string): Promise<TransitionResult> {
  return transition(deps, run.team_id, run.id, { from: LEASED_STATES, to: 'QUEUED', leaseOwner, claimCount: { add: -1 } });
}
