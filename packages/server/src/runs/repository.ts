/**
 * Runs table access for the REST API. EVERY query takes the team id. State changes, events, steps and
 * follow-ups belong to the engine's run store (engine/run-store.ts); this module inserts new runs and reads.
 */
import type { Insertable, Kysely, Selectable, SqlBool } from 'kysely';
import { compiledQuery } from '../db/compiled-query';
import { dialectOfDb, jsonTextField, toBuffer } from '../db/dialect';
import type { Database, RunAttachmentsTable, RunsTable } from '../db/tables';
import type { RunsSortKey } from './cursor';
import type { SortOrder } from '../pagination';

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

export async function insertRun(db: Kysely<Database>, run: Insertable<RunsTable>): Promise<void> {
  await db.insertInto('runs').values(run).execute();
}

export async function insertAttachments(db: Kysely<Database>, rows: Array<Insertable<RunAttachmentsTable>>): Promise<void> {
  // One insert per row: SQLite multi-row inserts and large BLOBs do not mix well, and there are at most five.
  for (const row of rows) await db.insertInto('run_attachments').values(row).execute();
}

export async function findRunRow(db: Kysely<Database>, teamId: string, runId: string): Promise<RunRow | undefined> {
  return db.selectFrom('runs').selectAll().where('team_id', '=', teamId).where('id', '=', runId).executeTakeFirst();
}

export interface RunFilters {
  states?: string[];
  name?: string;
  modelId?: string;
  creator?: string;
  source?: string;
  factoryId?: string;
  automationId?: string;
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
type ListQuery = (db: Kysely<Database>, ...args: ListArg[]) => Promise<{ rows: RunListRow[] }>;

/**
 * Building and compiling the Kysely tree costs more than running the indexed list query, and the SQL depends
 * only on the shape, so each shape (and number of states) is compiled once (db/compiled-query.ts); later
 * pages only bind values. Past LIST_QUERY_SHAPES shapes the oldest is dropped.
 */
const listQueries = new Map<string, ListQuery>();
const LIST_QUERY_SHAPES = 256;

/** One page (limit + 1 rows, so the caller knows whether another page follows). */
export async function listRunRows(
  db: Kysely<Database>,
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
  return compiledQuery((db: Kysely<Database>, ...args: ListArg[]) => {
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
  db: Kysely<Database>,
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
export async function listAttachmentMeta(db: Kysely<Database>, teamId: string, runIds: string[]): Promise<AttachmentMeta[]> {
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
  db: Kysely<Database>,
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

export async function teamHasEnvironment(db: Kysely<Database>, teamId: string, environmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('environments')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', '=', environmentId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The run's latest `state` event (what a new SSE stream starts with). */
export async function findLatestStateEvent(
  db: Kysely<Database>,
  teamId: string,
  runId: string,
): Promise<{ seq: number; data: string } | undefined> {
  const row = await db
    .selectFrom('run_events')
    .select(['seq', 'data'])
    .where('team_id', '=', teamId)
    .where('run_id', '=', runId)
    .where('kind', '=', 'state')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { seq: Number(row.seq), data: row.data } : undefined;
}
