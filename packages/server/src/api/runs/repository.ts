/**
 * Runs table access for the REST API. EVERY query takes the team id. State changes, events, steps and
 * follow-ups belong to the engine's run store (engine/run-store.ts); this module inserts new runs and reads.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import { jsonTextField, toBuffer, type Dialect } from '../../db/dialect';
import type { Database, RunAttachmentsTable, RunsTable } from '../../db/tables';
import type { RunsSortKey } from './cursor';
import type { SortOrder } from '../../http/cursor';

export type RunRow = Selectable<RunsTable>;
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

/** One page (limit + 1 rows, so the caller knows whether another page follows). */
export async function listRunRows(
  db: Kysely<Database>,
  dialect: Dialect,
  teamId: string,
  filters: RunFilters,
  page: RunsPage,
): Promise<RunRow[]> {
  const column = page.sortBy;
  let q = db.selectFrom('runs').selectAll().where('team_id', '=', teamId);
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
  return q.orderBy(column, page.order).orderBy('id', page.order).limit(page.limit + 1).execute();
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
