/**
 * The per-run event log (`run_events`): what SSE streams and the conversation are read from.
 *
 * - Event numbers come from `UPDATE runs SET event_seq = event_seq + n … RETURNING event_seq`, which
 *   serialises writers of one run on its row lock (PostgreSQL) or the single connection (SQLite).
 * - Events are written in the transaction of the change they record; in-process listeners
 *   (./signals.ts) are woken only after the commit (`inRunTransaction`).
 */
import type { Timestamp } from '../db/tables';
import type { ContentBlock, RunRole, RunStatusMessage } from './contract';
import type { Db, RunsDeps } from './repository';
import type { RunNoticeKind } from './signals';
import type { RunState } from './states';
import { teamScope } from '../db/scoped';

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

export type EventInput = { kind: 'state'; data: StateEventData } | { kind: 'content'; data: ContentEventData };

type RunKey = { id: string; team_id: string };

const eventTime = (e: EventInput): Timestamp => (e.kind === 'state' ? e.data.updated_at : e.data.timestamp);

/**
 * Runs `fn` in a transaction that also announces the change to other processes (`kindOf` its result says
 * what kind of change: default `events`), and wakes the run's (and its team's) listeners of this process
 * after the commit.
 */
export async function inRunTransaction<T>(
  deps: Pick<RunsDeps, 'db' | 'runSignals'>,
  teamId: string,
  runId: string,
  fn: (tx: Db) => Promise<T>,
  kindOf: (result: T) => RunNoticeKind = () => 'events',
): Promise<T> {
  const result = await deps.db.transaction().execute(async (tx) => {
    const done = await fn(tx);
    await deps.runSignals.announceInTransaction(tx, kindOf(done), teamId, runId);
    return done;
  });
  deps.runSignals.notifyRunEvent(teamId, runId);
  return result;
}

/**
 * Writes `events` as numbers lastSeq-n+1 … lastSeq, which the caller has already reserved (a state change
 * bumps event_seq in its own UPDATE).
 */
export async function insertEvents(tx: Db, run: RunKey, lastSeq: number, events: EventInput[]): Promise<void> {
  if (events.length === 0) return;
  const first = lastSeq - events.length + 1;
  await teamScope(tx, run.team_id)
    .insertInto(
      'run_events',
      events.map((e, i) => ({
        run_id: run.id,
        seq: first + i,
        kind: e.kind,
        data: JSON.stringify(e.data),
        created_at: eventTime(e),
        step_id: e.kind === 'content' ? e.data.step_id : null,
      })),
    )
    .execute();
}

/**
 * Reserves numbers for `events`, writes them and returns the last one; undefined (nothing written) when the
 * run, or the guard (the lease owner and states a worker's write requires), does not match.
 */
export async function appendEvents(
  tx: Db,
  run: RunKey,
  events: EventInput[],
  guard: { leaseOwner?: string; states?: readonly RunState[] } = {},
): Promise<number | undefined> {
  let q = teamScope(tx, run.team_id)
    .updateTable('runs')
    .set((eb) => ({ event_seq: eb('event_seq', '+', events.length) }))
    .where('id', '=', run.id);
  if (guard.leaseOwner !== undefined) q = q.where('lease_owner', '=', guard.leaseOwner);
  if (guard.states) q = q.where('state', 'in', [...guard.states]);
  const row = await q.returning('event_seq').executeTakeFirst();
  if (!row) return undefined;
  const lastSeq = Number(row.event_seq);
  await insertEvents(tx, run, lastSeq, events);
  return lastSeq;
}

/**
 * Appends one event inside the caller's transaction and returns its number. The caller announces it in
 * the transaction and calls `ctx.runSignals.notifyRunEvent(run.team_id, run.id)` after its commit (./signals.ts).
 */
export async function appendEvent(tx: Db, run: RunKey, kind: 'state' | 'content', data: StateEventData | ContentEventData): Promise<number> {
  const seq = await appendEvents(tx, run, [{ kind, data } as EventInput]);
  if (seq === undefined) throw new Error(`run ${run.id} not found`);
  return seq;
}

/** Events after `afterSeq` in order (SSE, Last-Event-ID). */
export async function readEvents(deps: Pick<RunsDeps, 'db'>, teamId: string, runId: string, afterSeq = 0, limit = 500): Promise<RunEvent[]> {
  const rows = await teamScope(deps.db, teamId)
    .selectFrom('run_events')
    .select(['seq', 'kind', 'data', 'created_at'])
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), kind: r.kind, data: JSON.parse(r.data), created_at: r.created_at }) as RunEvent);
}

/** The run's latest `state` event with its data as stored (what a new SSE stream starts with). */
export async function findLatestStateEvent(deps: Pick<RunsDeps, 'db'>, teamId: string, runId: string): Promise<{ seq: number; data: string } | undefined> {
  const row = await teamScope(deps.db, teamId)
    .selectFrom('run_events')
    .select(['seq', 'data'])
    .where('run_id', '=', runId)
    .where('kind', '=', 'state')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { seq: Number(row.seq), data: row.data } : undefined;
}

/**
 * The run's `state` events after `afterSeq` that were recorded at or after `since`, in order, with their
 * data as stored (the team-wide stream).
 */
export async function readStateEventsSince(
  deps: Pick<RunsDeps, 'db'>,
  teamId: string,
  runId: string,
  afterSeq: number,
  since: Timestamp,
): Promise<Array<{ seq: number; data: string }>> {
  const rows = await teamScope(deps.db, teamId)
    .selectFrom('run_events')
    .select(['seq', 'data'])
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .where('kind', '=', 'state')
    .where('created_at', '>=', since)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), data: r.data }));
}

/** The state the run was in before its event `seq`: the data of its latest `state` event before it (null: none). */
export async function findStateBefore(tx: Db, run: RunKey, seq: number): Promise<RunState | null> {
  const row = await teamScope(tx, run.team_id)
    .selectFrom('run_events')
    .select('data')
    .where('run_id', '=', run.id)
    .where('seq', '<', seq)
    .where('kind', '=', 'state')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.data) as StateEventData).state : null;
}

/** Every event of one kind, in order. */
export async function readEventsOfKind<K extends RunEvent['kind']>(
  tx: Db,
  teamId: string,
  runId: string,
  kind: K,
): Promise<Array<{ seq: number; data: Extract<RunEvent, { kind: K }>['data'] }>> {
  const rows = await teamScope(tx, teamId)
    .selectFrom('run_events')
    .select(['seq', 'data'])
    .where('run_id', '=', runId)
    .where('kind', '=', kind)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), data: JSON.parse(r.data) }));
}
