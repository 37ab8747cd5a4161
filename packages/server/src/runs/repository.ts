/**
 * Runs table access: THE way the server reads a run. Every query takes the team id, except the service-wide
 * reads at the end (a worker and the retention job act for every team), which say so in their names.
 * State changes, events, turns and follow-ups are written by ./transitions, ./events, ./conversation and
 * ./executions; this module inserts new runs and reads.
 */
import type { Insertable, Kysely, Selectable, SqlBool } from 'kysely';
import type { ServerContext } from '../context';
import { compiledQuery } from '../db/compiled-query';
import { dialectOfDb, jsonTextField, toBuffer } from '../db/dialect';
import type { Database, RunAttachmentsTable, RunsTable, Timestamp } from '../db/tables';
import type { RunStatusMessage, TokenUsage } from '../engine/runner';
import type { RunsSortKey } from './cursor';
import type { SortOrder } from '../pagination';
import { LEASED_STATES, TERMINAL_STATES, type RunState } from './states';

/** A Kysely instance or a transaction of one (a Transaction<Database> is a Kysely<Database>). */
export type Db = Kysely<Database>;

/**
 * What the run data modules need; a ServerContext satisfies it. `runSignals` wakes listeners after a commit,
 * `notifyRunQueued` (when given) wakes workers after a re-queue.
 */
export type RunsDeps = Pick<ServerContext, 'db' | 'clock' | 'runSignals'> & Partial<Pick<ServerContext, 'notifyRunQueued'>>;

export type RunRow = Selectable<RunsTable>;
/** The columns a RunItem is made of (service.ts toRunItem); a list reads these and nothing else. */
const RUN_ITEM_COLUMNS = [
  'id',
  'title',
  'prompt',
  'state',
  'source',
  'creator_type',
  'creator_uid',
  'creator_display_name',
  'creator_email',
  'status_message',
  'session_id',
  'resolved_config',
  'factory_id',
  'automation_id',
  'delivery_id',
  'usage',
  'created_at',
  'updated_at',
  'started_at',
] as const satisfies ReadonlyArray<keyof RunsTable>;
export type RunItemRow = Pick<RunRow, (typeof RUN_ITEM_COLUMNS)[number]>;
/** A row of a runs page: whether the run has attachments tells the caller whether to read their metadata. */
export type RunListRow = RunItemRow & { has_attachments: SqlBool };
export type AttachmentRow = Selectable<RunAttachmentsTable>;
export type AttachmentMeta = Pick<AttachmentRow, 'run_id' | 'file_name' | 'mime_type' | 'size'>;

/** Thrown by writes of a worker that no longer owns the run (cancelled, lease lost or finished). */
export class RunNotOwnedError extends Error {
  override readonly name = 'RunNotOwnedError';
  constructor(readonly runId: string) {
    super(`run ${runId} is no longer executed by this worker`);
  }
}

/** pg answers BIGINT columns as strings; every integer of a run row is normalised here. */
export function normalizeRun(row: RunRow): RunRow {
  return { ...row, event_seq: Number(row.event_seq), claim_count: Number(row.claim_count) };
}

const parseJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
export const runStatusMessage = (run: Pick<RunRow, 'status_message'>): RunStatusMessage | null => parseJson<RunStatusMessage>(run.status_message);
export const runUsage = (run: Pick<RunRow, 'usage'>): TokenUsage | null => parseJson<TokenUsage>(run.usage);

export async function insertRun(db: Db, run: Insertable<RunsTable>): Promise<void> {
  await db.insertInto('runs').values(run).execute();
}

export async function insertAttachments(db: Db, rows: Array<Insertable<RunAttachmentsTable>>): Promise<void> {
  // One insert per row: SQLite multi-row inserts and large BLOBs do not mix well, and there are at most five.
  for (const row of rows) await db.insertInto('run_attachments').values(row).execute();
}

/** The run of the team, or undefined. Inside a transaction pass `{ db: tx }`. */
export async function findRun(ctx: { db: Db }, teamId: string, runId: string): Promise<RunRow | undefined> {
  const row = await ctx.db.selectFrom('runs').selectAll().where('team_id', '=', teamId).where('id', '=', runId).executeTakeFirst();
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

/** lockRun for the worker executing the run: INPROGRESS under its lease, else undefined (no longer its run). */
export function lockExecutingRun(tx: Db, run: { id: string; team_id: string }, leaseOwner: string): Promise<RunRow | undefined> {
  return lockRun(tx, run.team_id, run.id, { leaseOwner, states: ['INPROGRESS'] });
}

export interface RunFilters {
  states?: string[];
  name?: string;
  modelId?: string;
  creator?: string;
  source?: string;
  factoryId?: string;
  automationId?: string;
  deliveryId?: string;
  /** Exact, lowercase (session ids are stored so). */
  sessionId?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
}

export interface RunsPage {
  sortBy: RunsSortKey;
  order: SortOrder;
  limit: number;
  /** Keyset position: rows strictly after (value, id) in the sort order. */
  after?: { value: string; id: string };
}

type FilterKey = keyof RunFilters;
/** Every filter (a Record, so a filter added to RunFilters cannot be left out of the shape), in binding order. */
const FILTER_KEYS = Object.keys({
  states: true,
  name: true,
  modelId: true,
  creator: true,
  source: true,
  factoryId: true,
  automationId: true,
  deliveryId: true,
  sessionId: true,
  createdAfter: true,
  createdBefore: true,
  updatedAfter: true,
} satisfies Record<FilterKey, true>) as FilterKey[];

/** What the list SQL depends on; everything else is a bound value. */
interface ListShape {
  sortBy: RunsSortKey;
  order: SortOrder;
  /** The filters given, in FILTER_KEYS order (`states` only when not empty). */
  filters: FilterKey[];
  cursor: boolean;
}

type ListArg = string | number | readonly string[];
type ListQuery = (db: Db, ...args: ListArg[]) => Promise<{ rows: RunListRow[] }>;

/**
 * Building and compiling the Kysely tree costs more than running the indexed list query, and the SQL depends
 * only on the shape, so each shape (and number of states) is compiled once (db/compiled-query.ts); later
 * pages only bind values. Past LIST_QUERY_SHAPES shapes the oldest is dropped.
 */
const listQueries = new Map<string, ListQuery>();
const LIST_QUERY_SHAPES = 256;

/** One page (limit + 1 rows, so the caller knows whether another page follows). */
export async function listRunRows(
  db: Db,
  teamId: string,
  filters: RunFilters,
  page: RunsPage,
): Promise<RunListRow[]> {
  const shape: ListShape = {
    sortBy: page.sortBy,
    order: page.order,
    filters: FILTER_KEYS.filter((key) => (key === 'states' ? Boolean(filters.states?.length) : filters[key] !== undefined)),
    cursor: page.after !== undefined,
  };
  const key = JSON.stringify([shape, filters.states?.length ?? 0]);
  let query = listQueries.get(key);
  if (!query) {
    query = compileListQuery(shape);
    if (listQueries.size >= LIST_QUERY_SHAPES) listQueries.delete(listQueries.keys().next().value as string);
    listQueries.set(key, query);
  }
  const args: ListArg[] = [teamId, page.limit + 1, ...shape.filters.map((f) => filters[f]!)];
  if (page.after) args.push(page.after.value, page.after.id);
  return (await query(db, ...args)).rows;
}

/** The list query of one shape; its arguments come in the order listRunRows passes them. */
function compileListQuery(shape: ListShape): ListQuery {
  return compiledQuery((db: Db, ...args: ListArg[]) => {
    const [teamId, fetch, ...rest] = args as [string, number, ...ListArg[]];
    const filters: RunFilters = Object.fromEntries(shape.filters.map((f, i) => [f, rest[i]]));
    const [value, id] = rest.slice(shape.filters.length) as [string, string];
    return selectRunsPage(db, teamId, filters, {
      sortBy: shape.sortBy,
      order: shape.order,
      fetch,
      ...(shape.cursor ? { after: { value, id } } : {}),
    });
  });
}

function selectRunsPage(
  db: Db,
  teamId: string,
  filters: RunFilters,
  page: Omit<RunsPage, 'limit'> & { fetch: number },
) {
  const dialect = dialectOfDb(db);
  const column = page.sortBy;
  let q = db
    .selectFrom('runs')
    .select(RUN_ITEM_COLUMNS)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('run_attachments')
            .select('run_attachments.run_id')
            .whereRef('run_attachments.run_id', '=', 'runs.id')
            .whereRef('run_attachments.team_id', '=', 'runs.team_id'),
        )
        .as('has_attachments'),
    )
    .where('team_id', '=', teamId);
  if (filters.states?.length) q = q.where('state', 'in', filters.states);
  if (filters.name !== undefined) q = q.where(jsonTextField(dialect, 'resolved_config', 'name'), '=', filters.name);
  if (filters.modelId !== undefined) q = q.where(jsonTextField(dialect, 'resolved_config', 'model_id'), '=', filters.modelId);
  if (filters.creator !== undefined) q = q.where('creator_uid', '=', filters.creator);
  if (filters.source !== undefined) q = q.where('source', '=', filters.source);
  if (filters.factoryId !== undefined) q = q.where('factory_id', '=', filters.factoryId);
  if (filters.automationId !== undefined) q = q.where('automation_id', '=', filters.automationId);
  if (filters.deliveryId !== undefined) q = q.where('delivery_id', '=', filters.deliveryId);
  if (filters.sessionId !== undefined) q = q.where('session_id', '=', filters.sessionId);
  if (filters.createdAfter !== undefined) q = q.where('created_at', '>', filters.createdAfter);
  if (filters.createdBefore !== undefined) q = q.where('created_at', '<', filters.createdBefore);
  if (filters.updatedAfter !== undefined) q = q.where('updated_at', '>', filters.updatedAfter);
  if (page.after) {
    const { value, id } = page.after;
    const cmp = page.order === 'desc' ? '<' : '>';
    // A row-value comparison, (column, id) < (value, id): both planners turn it into an index range, where
    // the equivalent `column < v OR (column = v AND id < i)` made SQLite walk the index from the top.
    q = q.where((eb) => eb(eb.refTuple(column, 'id'), cmp, eb.tuple(value, id)));
  }
  return q.orderBy(column, page.order).orderBy('id', page.order).limit(page.fetch);
}

/** Attachment metadata of some runs of the team (no bytes). */
export async function listAttachmentMeta(db: Db, teamId: string, runIds: string[]): Promise<AttachmentMeta[]> {
  if (runIds.length === 0) return [];
  const rows = await db
    .selectFrom('run_attachments')
    .select(['run_id', 'file_name', 'mime_type', 'size'])
    .where('team_id', '=', teamId)
    .where('run_id', 'in', runIds)
    .orderBy('run_id')
    .orderBy('file_name')
    .execute();
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

export async function findAttachment(
  db: Db,
  teamId: string,
  runId: string,
  fileName: string,
): Promise<AttachmentRow | undefined> {
  const row = await db
    .selectFrom('run_attachments')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .where('file_name', '=', fileName)
    .executeTakeFirst();
  return row ? { ...row, size: Number(row.size), data: toBuffer(row.data) } : undefined;
}

export async function teamHasEnvironment(db: Db, teamId: string, environmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('environments')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', '=', environmentId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The run's attachments with their bytes, in the order they were given (the worker writes them as files). */
export async function listAttachments(db: Db, teamId: string, runId: string): Promise<Array<Pick<AttachmentRow, 'file_name' | 'mime_type' | 'data'>>> {
  const rows = await db
    .selectFrom('run_attachments')
    .select(['file_name', 'mime_type', 'data'])
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .orderBy('created_at')
    .orderBy('file_name')
    .execute();
  return rows.map((r) => ({ ...r, data: toBuffer(r.data) }));
}

// ---------------------------------------------------------------------------------------------------------
// SERVICE-WIDE reads: no team filter, because the reader acts for every team. The claim (a write) is the
// third such query on runs: ./executions claimNextRun.

export interface ExpiredLease {
  id: string;
  team_id: string;
  lease_owner: string;
  claim_count: number;
}

/** SERVICE-WIDE: leased runs whose lease expired at or before `by`, oldest expiry first (the lease sweeper). */
export async function findExpiredLeasesServiceWide(db: Db, by: Timestamp, limit: number): Promise<ExpiredLease[]> {
  const rows = await db
    .selectFrom('runs')
    .select(['id', 'team_id', 'lease_owner', 'claim_count'])
    .where('state', 'in', [...LEASED_STATES])
    .where('lease_expires_at', '<=', by)
    .orderBy('lease_expires_at')
    .limit(limit)
    .execute();
  return rows.flatMap((r) => (r.lease_owner === null ? [] : [{ ...r, lease_owner: r.lease_owner, claim_count: Number(r.claim_count) }]));
}

/**
 * SERVICE-WIDE: of `runIds`, those whose working directory is kept: not terminal, or changed since
 * `cutoff` (work-dir retention: directories are named by run id alone).
 */
export async function findRunIdsKeepingWorkDirServiceWide(db: Db, runIds: string[], cutoff: Timestamp): Promise<string[]> {
  const rows = await db
    .selectFrom('runs')
    .select('id')
    .where('id', 'in', runIds)
    .where((eb) => eb.or([eb('state', 'not in', [...TERMINAL_STATES]), eb('updated_at', '>=', cutoff)]))
    .execute();
  return rows.map((r) => r.id);
}
