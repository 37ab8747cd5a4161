/**
 * A run's conversation: its turns (`run_steps`), their messages (the log's `content` events, one per
 * block) and the follow-up inbox (`run_followups`). Read by GET …/conversation, written by the runner
 * through the ConversationWriter its worker hands it, and by run creation and POST …/followups. Read a
 * page at a time by ./conversation-stream.ts.
 */
import { toTimestamp } from '../clock';
import { newSortableId } from '../crypto/ids';
import type { Timestamp } from '../db/tables';
import type { ContentBlock, ConversationWriter, FollowupInbox, RunRole } from './contract';
import { appendEvents, inRunTransaction, readEventsOfKind, type ContentEventData } from './events';
import { addStoredOutput, OutputLimitError, storedBytesOf } from './output-limit';
import { lockExecutingRun, RunNotOwnedError, type Db, type RunRow, type RunsDeps } from './repository';
import { teamScope } from '../db/scoped';

type RunKey = { id: string; team_id: string };

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

export const conversationIdFor = (runId: string): string => `conv_${runId}`;

// ---------------------------------------------------------------------------------------------------
// Turns and messages

export interface StepRow {
  id: string;
  position: number;
  description: string | null;
  summary: string | null;
  started_at: Timestamp;
  completed_at: Timestamp | null;
}

export async function loadSteps(tx: Db, teamId: string, runId: string): Promise<StepRow[]> {
  const rows = await teamScope(tx, teamId)
    .selectFrom('run_steps')
    .select(['id', 'position', 'description', 'summary', 'started_at', 'completed_at'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...r, position: Number(r.position) }));
}

export const loadContentEvents = (tx: Db, teamId: string, runId: string): Promise<Array<{ seq: number; data: ContentEventData }>> =>
  readEventsOfKind(tx, teamId, runId, 'content');

export interface GroupedMessage {
  stepId: string;
  messageId: string;
  role: RunRole;
  timestamp: Timestamp;
  firstSeq: number;
  content: ContentBlock[];
}

/** Content events → messages (blocks grouped by message_id, in order of their first block). */
export function groupMessages(events: Array<{ seq: number; data: ContentEventData }>): GroupedMessage[] {
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

/** Opens the run's next step (position = last + 1). Caller holds the run's row lock. */
async function openStep(tx: Db, run: RunKey, at: Date, description: string | null): Promise<string> {
  const last = await teamScope(tx, run.team_id)
    .selectFrom('run_steps')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('run_id', '=', run.id)
    .executeTakeFirst();
  const position = Number(last?.position ?? 0) + 1;
  const id = newSortableId('step', at);
  await teamScope(tx, run.team_id)
    .insertInto('run_steps', { id, run_id: run.id, position, description, summary: null, started_at: toTimestamp(at), completed_at: null })
    .execute();
  return id;
}

/**
 * Closes the run's open turns at `at`: all of them (the run reached a terminal state), or, when a turn
 * starts, those before it.
 */
export async function closeOpenTurns(tx: Db, run: RunKey, at: Timestamp, startingTurn?: { id: string; position: number }): Promise<void> {
  let q = teamScope(tx, run.team_id).updateTable('run_steps').set({ completed_at: at }).where('run_id', '=', run.id).where('completed_at', 'is', null);
  if (startingTurn) q = q.where('position', '<', startingTurn.position).where('id', '!=', startingTurn.id);
  await q.execute();
}

/** Records one message as one `content` event per block; returns false when the guard did not match. */
async function appendMessage(
  tx: Db,
  run: RunKey,
  stepId: string,
  role: RunRole,
  blocks: ContentBlock[],
  at: Date,
  messageId: string,
  guard?: { leaseOwner: string },
): Promise<boolean> {
  if (blocks.length === 0) return true;
  const timestamp = toTimestamp(at);
  const events = blocks.map((block) => ({
    kind: 'content' as const,
    data: { run_id: run.id, step_id: stepId, message_id: messageId, role, timestamp, block },
  }));
  return (await appendEvents(tx, run, events, guard ? { leaseOwner: guard.leaseOwner, states: ['INPROGRESS'] } : {})) !== undefined;
}

/** Turn 1 with the prompt as the user's message (at run creation, or by the worker for a run created without it). */
export async function openInitialTurn(tx: Db, run: Pick<RunRow, 'id' | 'team_id' | 'prompt'>, at: Date): Promise<string> {
  const stepId = await openStep(tx, run, at, null);
  await appendMessage(tx, run, stepId, 'user', [{ type: 'text', text: run.prompt }], at, newSortableId('msg', at));
  return stepId;
}

/**
 * The ConversationWriter a worker hands its runner. Writes only while this worker still executes the
 * run (state INPROGRESS and lease owner = worker); otherwise throws RunNotOwnedError. A message that would
 * take the run's stored output past `outputLimitBytes` is not written: it throws an OutputLimitError, and so
 * does every append after it (./output-limit.ts).
 */
export function createConversationWriter(
  deps: RunsDeps,
  run: RunKey,
  initialStepId: string,
  leaseOwner: string,
  outputLimitBytes: number,
): ConversationWriter & { readonly currentStepId: string } {
  let currentStepId = initialStepId;
  let exceeded: OutputLimitError | undefined;
  return {
    get currentStepId() {
      return currentStepId;
    },
    get exceeded() {
      return exceeded;
    },
    async append(role, content) {
      if (exceeded) throw exceeded;
      if (content.length === 0) return;
      const now = deps.clock.now();
      const bytes = storedBytesOf(content);
      const written = await inRunTransaction(deps, run.team_id, run.id, async (tx) => {
        const added = await addStoredOutput(tx, run, leaseOwner, bytes, outputLimitBytes);
        if (added.status !== 'added') return added;
        const ok = await appendMessage(tx, run, currentStepId, role, content, now, newSortableId('msg', now), { leaseOwner });
        return ok ? added : { status: 'not_owned' as const };
      });
      if (written.status === 'not_owned') throw new RunNotOwnedError(run.id);
      if (written.status === 'over_limit') throw (exceeded = new OutputLimitError(written.stored, outputLimitBytes));
    },
    async startTurn(description) {
      const now = deps.clock.now();
      currentStepId = await inRunTransaction(deps, run.team_id, run.id, async (tx) => {
        if (!(await lockExecutingRun(tx, run, leaseOwner))) throw new RunNotOwnedError(run.id);
        const steps = await loadSteps(tx, run.team_id, run.id);
        const current = steps.find((s) => s.id === currentStepId);
        const latest = steps[steps.length - 1];
        // Follow-ups opened their own turn when accepted: continue in the newest of them; else open one.
        let next: string;
        if (latest && current && latest.position > current.position) {
          next = latest.id;
          if (description !== undefined && latest.description === null) {
            await teamScope(tx, run.team_id).updateTable('run_steps').set({ description }).where('id', '=', next).execute();
          }
        } else {
          next = await openStep(tx, run, now, description ?? null);
        }
        const nextPosition = steps.find((s) => s.id === next)?.position ?? Number.POSITIVE_INFINITY;
        await closeOpenTurns(tx, run, toTimestamp(now), { id: next, position: nextPosition });
        return next;
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Follow-ups

/**
 * Stores an accepted follow-up: a new turn holding it as the user's message (its message_id is the
 * follow-up id) and an undelivered inbox entry. Caller holds the run's row lock.
 */
export async function addFollowup(tx: Db, run: RunKey, message: string, at: Date): Promise<string> {
  const followupId = newSortableId('fup', at);
  await teamScope(tx, run.team_id)
    .insertInto('run_followups', { id: followupId, run_id: run.id, message, created_at: toTimestamp(at), delivered_at: null })
    .execute();
  const stepId = await openStep(tx, run, at, null);
  await appendMessage(tx, run, stepId, 'user', [{ type: 'text', text: message }], at, followupId);
  return followupId;
}

/** The run's follow-ups, oldest first. */
export function listFollowups(tx: Db, run: RunKey): Promise<Array<{ id: string; message: string; delivered_at: Timestamp | null }>> {
  return teamScope(tx, run.team_id)
    .selectFrom('run_followups')
    .select(['id', 'message', 'delivered_at'])
    .where('run_id', '=', run.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Marks follow-ups delivered at `at`, or (null) undelivered again. */
export async function setFollowupsDelivered(tx: Db, run: RunKey, ids: string[], at: Timestamp | null): Promise<void> {
  if (ids.length === 0) return;
  await teamScope(tx, run.team_id).updateTable('run_followups').set({ delivered_at: at }).where('id', 'in', ids).execute();
}

export async function hasUndeliveredFollowup(tx: Db, run: RunKey): Promise<boolean> {
  const row = await teamScope(tx, run.team_id)
    .selectFrom('run_followups')
    .select('id')
    .where('run_id', '=', run.id)
    .where('delivered_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The follow-up inbox of one execution: each undelivered follow-up is returned once, oldest first. */
export function createFollowupInbox(deps: RunsDeps, run: RunKey): FollowupInbox {
  return {
    async take() {
      // One statement (no read-then-write transaction, which a second SQLite connection could invalidate).
      const rows = await teamScope(deps.db, run.team_id)
        .updateTable('run_followups')
        .set({ delivered_at: toTimestamp(deps.clock.now()) })
        .where('run_id', '=', run.id)
        .where('delivered_at', 'is', null)
        .returning(['id', 'message', 'created_at'])
        .execute();
      rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
      return rows.map((r) => r.message);
    },
  };
}
