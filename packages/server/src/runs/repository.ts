/**
 * Runs table access: THE way the server reads a run. Every query takes the team id, except the service-wide
 * reads at the end (a worker and the retention job act for every team), which say so in their names.
 * State changes, events, turns and follow-ups are written by ./transitions, ./events, ./conversation and
 * ./executions; this module inserts new runs and reads.
 */
import { sql, type Expression, type Insertable, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Clock } from '../clock';
import { compiledQuery } from '../db/compiled-query';
import { dialectOfDb, jsonTextField, toBuffer, type Dialect } from '../db/dialect';
import type { Database, RunArtifactsTable, RunAttachmentsTable, RunsTable, Timestamp } from '../db/tables';
import type { RunStatusMessage, TokenUsage } from './contract';
import type { RunsSortKey } from './cursor';
import type { RunSignals } from './signals';
import type { RunStateChangeRecorder } from './state-changes';
import type { SortOrder } from '../pagination';
import { LEASED_STATES, TERMINAL_STATES, type RunState } from './states';
import { teamScope } from '../db/scoped';

/** A Kysely instance or a transaction of one (a Transaction<Database> is a Kysely<Database>). */
export type Db = Kysely<Database>;

/**
 * What the run data modules need; a ServerContext satisfies it. `runSignals` wakes listeners after a commit,
 * `notificationOutbox` records the outbound notifications of every state change in its transaction,
 * `notifyRunQueued` (when given) wakes workers after a re-queue.
 */
export interface RunsDeps {
  db: Db;
  clock: Clock;
  runSignals: RunSignals;
  notificationOutbox: RunStateChangeRecorder;
  notifyRunQueued?: () => void;
}

export type RunRow = Selectable<RunsTable>;
/** The columns a RunItem is made of (service.ts toRunItem); a list reads these and nothing else. */
const RUN_ITEM_COLUMNS = [
  'id',
  'team_id',
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
  'metadata',
  'parent_run_id',
  'schedule',
  'usage',
  'image_digest',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
] as const satisfies ReadonlyArray<keyof RunsTable>;
export type RunItemRow = Pick<RunRow, (typeof RUN_ITEM_COLUMNS)[number]>;
/**
 * A row of a runs page: whether the run has attachments (artifacts) tells the caller whether to read them;
 * `sort_key` is the value of the page's sort (the keyset position).
 */
export type RunListRow = RunItemRow & { has_attachments: SqlBool; has_artifacts: SqlBool; sort_key: string };
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
/** A run's usage as stored: its tokens and, once the server prices models, their cost in micro-dollars (budgets/money.ts). */
export type StoredUsage = Pick<TokenUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'> & { cost_micros?: number };
export const runUsage = (run: Pick<RunRow, 'usage'>): StoredUsage | null => parseJson<StoredUsage>(run.usage);

/** The run's usage now (undefined: no such run of the team; null: nothing spent yet). */
export async function findRunUsage(db: Db, teamId: string, runId: string): Promise<StoredUsage | null | undefined> {
  const row = await teamScope(db, teamId).selectFrom('runs').select('usage').where('id', '=', runId).executeTakeFirst();
  return row ? runUsage(row) : undefined;
}
/** The run's page in the dashboard (RunItem.session_link, and the notifications' data.session_link). */
export const sessionLinkOf = (publicBaseUrl: string, run: Pick<RunRow, 'session_id'>): string => `${publicBaseUrl}/sessions/${run.session_id}`;

export async function insertRun(db: Db, run: Insertable<RunsTable>): Promise<void> {
  await teamScope(db, run.team_id).insertInto('runs', run).execute();
}

/** The run's metadata, one row per key (what `metadata[key]=value` filters read); runs.metadata keeps the whole object. */
export async function insertRunMetadata(db: Db, run: { id: string; team_id: string }, metadata: Record<string, string>): Promise<void> {
  const rows = Object.entries(metadata).map(([key, value]) => ({ run_id: run.id, key, value }));
  if (rows.length > 0) await teamScope(db, run.team_id).insertInto('run_metadata', rows).execute();
}

export async function insertAttachments(db: Db, rows: Array<Insertable<RunAttachmentsTable>>): Promise<void> {
  // One insert per row: SQLite multi-row inserts and large BLOBs do not mix well, and there are at most five.
  for (const row of rows) await teamScope(db, row.team_id).insertInto('run_attachments', row).execute();
}

/** The run of the team, or undefined. Inside a transaction pass `{ db: tx }`. */
export async function findRun(ctx: { db: Db }, teamId: string, runId: string): Promise<RunRow | undefined> {
  const row = await teamScope(ctx.db, teamId).selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  return row ? normalizeRun(row) : undefined;
}

/** The state of the run of the team, or undefined (a narrow read: the row's prompt may be 256 KiB). */
export async function findRunState(db: Db, teamId: string, runId: string): Promise<RunState | undefined> {
  const row = await teamScope(db, teamId).selectFrom('runs').select('state').where('id', '=', runId).executeTakeFirst();
  return row?.state as RunState | undefined;
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
  let q = teamScope(tx, teamId)
    .updateTable('runs')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
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
  /** A LIKE pattern (`%text%`, backslash-escaped) matched case-insensitively against title, prompt and skill_spec. */
  textPattern?: string;
  /** `agent_config.environment_id`; '' selects runs without one. */
  environmentId?: string;
  skillSpec?: string;
  /** Runs descending from this run of the team (through parent_run_id). */
  ancestorRunId?: string;
  /** Metadata keys and their values, pairwise (AND). */
  metadataKeys?: readonly string[];
  metadataValues?: readonly string[];
  /** Runs that published an artifact of this type (run_artifacts). */
  artifactType?: RunArtifactsTable['artifact_type'];
  /** The scheduled agent that started the runs. */
  scheduleId?: string;
  /** A filter that no run of this service can match (execution_location=LOCAL, two different skills…). */
  matchesNothing?: string;
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
  textPattern: true,
  environmentId: true,
  skillSpec: true,
  ancestorRunId: true,
  metadataKeys: true,
  metadataValues: true,
  artifactType: true,
  scheduleId: true,
  matchesNothing: true,
} satisfies Record<FilterKey, true>) as FilterKey[];

/** Filters whose values are lists: the compiled SQL depends on their lengths. */
const LIST_FILTERS = ['states', 'metadataKeys', 'metadataValues'] as const satisfies readonly FilterKey[];
const isListFilter = (key: FilterKey): key is (typeof LIST_FILTERS)[number] => (LIST_FILTERS as readonly string[]).includes(key);

/** What the list SQL depends on; everything else is a bound value. */
interface ListShape {
  sortBy: RunsSortKey;
  order: SortOrder;
  /** The filters given, in FILTER_KEYS order (`states` only when not empty). */
  filters: FilterKey[];
  cursor: boolean;
  /** SQLite: the runs of the first metadata pair, a rare one, are read first and sorted (see rareMetadataPair). */
  metadataDriven: boolean;
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
export async function listRunRows(db: Db, teamId: string, given: RunFilters, page: RunsPage): Promise<RunListRow[]> {
  const rare = dialectOfDb(db) === 'sqlite' ? await rareMetadataPair(db, teamId, given) : undefined;
  const filters = rare === undefined ? given : withMetadataPairFirst(given, rare);
  const shape: ListShape = {
    sortBy: page.sortBy,
    order: page.order,
    filters: FILTER_KEYS.filter((key) => (isListFilter(key) ? Boolean(filters[key]?.length) : filters[key] !== undefined)),
    cursor: page.after !== undefined,
    metadataDriven: rare !== undefined,
  };
  const key = JSON.stringify([shape, LIST_FILTERS.map((f) => filters[f]?.length ?? 0)]);
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

/**
 * A metadata pair names at most this many runs of the team: SQLite then reads them through run_metadata and
 * sorts them, instead of walking the team's runs in the page's order and testing each. Its planner has no
 * statistics (and with ANALYZE's averages it would read a common value the same way, which is slower): it
 * cannot tell a ticket id from a team name, so the list asks the index how many runs the pair names, stopping
 * past the mark. PostgreSQL's planner makes this choice itself.
 */
const METADATA_DRIVER_MAX_RUNS = 1000;

const countMetadataRuns = compiledQuery((db: Db, teamId: string, key: string, value: string, max: number) =>
  db
    .selectFrom(
      teamScope(db, teamId).selectFrom('run_metadata').select('run_metadata.run_id').where('key', '=', key).where('value', '=', value).limit(max).as('named'),
    )
    .select((eb) => eb.fn.countAll().as('runs')),
);

/** The index of the metadata pair naming the fewest runs, when it names at most METADATA_DRIVER_MAX_RUNS. */
async function rareMetadataPair(db: Db, teamId: string, filters: RunFilters): Promise<number | undefined> {
  let rarest: { index: number; runs: number } | undefined;
  for (const [index, key] of (filters.metadataKeys ?? []).entries()) {
    const { rows } = await countMetadataRuns(db, teamId, key, filters.metadataValues![index]!, METADATA_DRIVER_MAX_RUNS + 1);
    const runs = Number(rows[0]?.runs ?? Number.POSITIVE_INFINITY);
    if (runs <= METADATA_DRIVER_MAX_RUNS && (rarest === undefined || runs < rarest.runs)) rarest = { index, runs };
  }
  return rarest?.index;
}

function withMetadataPairFirst(filters: RunFilters, index: number): RunFilters {
  const first = <T>(list: readonly T[]) => [list[index]!, ...list.filter((_, i) => i !== index)];
  return { ...filters, metadataKeys: first(filters.metadataKeys!), metadataValues: first(filters.metadataValues!) };
}

/**
 * Filters whose selectivity depends on their value — a search text or a metadata value may match a handful
 * of runs or most of them — and with it the best plan: PostgreSQL plans these with the values every time
 * (db/compiled-query.ts prepareByName), as a generic plan drove a common team name through run_metadata
 * (177 ms for what a walk in order answers in 6 ms).
 */
const VALUE_DEPENDENT_FILTERS: readonly FilterKey[] = ['textPattern', 'metadataKeys'];

/** The list query of one shape; its arguments come in the order listRunRows passes them. */
function compileListQuery(shape: ListShape): ListQuery {
  const prepareByName = !shape.filters.some((f) => VALUE_DEPENDENT_FILTERS.includes(f));
  return compiledQuery(
    (db: Db, ...args: ListArg[]) => {
      const [teamId, fetch, ...rest] = args as [string, number, ...ListArg[]];
      const filters: RunFilters = Object.fromEntries(shape.filters.map((f, i) => [f, rest[i]]));
      const [value, id] = rest.slice(shape.filters.length) as [string, string];
      return selectRunsPage(db, teamId, filters, {
        sortBy: shape.sortBy,
        order: shape.order,
        fetch,
        metadataDriven: shape.metadataDriven,
        ...(shape.cursor ? { after: { value, id } } : {}),
      });
    },
    { prepareByName },
  );
}

function selectRunsPage(db: Db, teamId: string, filters: RunFilters, page: Omit<RunsPage, 'limit'> & { fetch: number; metadataDriven: boolean }) {
  const dialect = dialectOfDb(db);
  const sortKey = sortExpression(dialect, page.sortBy);
  const team = teamScope(db, teamId);
  // Driven by a rare metadata pair (SQLite), the team's condition hides the team's indexes from the planner, which
  // then reads the pair's runs by id (the IN below) and sorts them, instead of walking the whole team in order.
  let q = team
    .selectFrom('runs', { teamIndex: !page.metadataDriven })
    .select(RUN_ITEM_COLUMNS)
    .select(sortKey.as('sort_key'))
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
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('run_artifacts')
            .select('run_artifacts.run_id')
            .whereRef('run_artifacts.run_id', '=', 'runs.id')
            .whereRef('run_artifacts.team_id', '=', 'runs.team_id'),
        )
        .as('has_artifacts'),
    );
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
  if (filters.textPattern !== undefined) {
    const pattern = filters.textPattern;
    const skill = jsonTextField(dialect, 'resolved_config', 'skill_spec');
    q = q.where((eb) =>
      eb.or([containsText(dialect, sql.ref('title'), pattern), containsText(dialect, sql.ref('prompt'), pattern), containsText(dialect, skill, pattern)]),
    );
  }
  if (filters.environmentId !== undefined) {
    q = q.where(sql<string>`coalesce(${jsonTextField(dialect, 'resolved_config', 'environment_id')}, '')`, '=', filters.environmentId);
  }
  if (filters.skillSpec !== undefined) q = q.where(jsonTextField(dialect, 'resolved_config', 'skill_spec'), '=', filters.skillSpec);
  if (filters.ancestorRunId !== undefined) {
    // The descendants, level by level over (team_id, parent_run_id); parents exist before their children, so there is no cycle.
    const ancestor = filters.ancestorRunId;
    q = q.where(
      sql<boolean>`runs.id in (with recursive descendants(id) as (
        select c.id from runs c where c.team_id = ${teamId} and c.parent_run_id = ${ancestor}
        union select c.id from runs c join descendants d on c.parent_run_id = d.id where c.team_id = ${teamId}
      ) select id from descendants)`,
    );
  }
  // Each pair through run_metadata's (team_id, key, value, run_id) index: a rare value is a few index entries,
  // not a parse of every run's metadata JSON.
  filters.metadataKeys?.forEach((metadataKey, i) => {
    q = q.where('runs.id', 'in', (eb) =>
      team
        .subqueryFrom(eb, 'run_metadata')
        .select('run_metadata.run_id')
        .where('run_metadata.key', '=', metadataKey)
        .where('run_metadata.value', '=', filters.metadataValues![i]!),
    );
  });
  if (filters.artifactType !== undefined) {
    // The matching runs come from run_artifacts(artifact_type, team_id, run_id), a set the planner builds once;
    // an EXISTS probe per run scanned the team's runs when few (or none) match.
    const artifactType = filters.artifactType;
    q = q.where('runs.id', 'in', (eb) =>
      team.subqueryFrom(eb, 'run_artifacts').select('run_artifacts.run_id').where('run_artifacts.artifact_type', '=', artifactType),
    );
  }
  if (filters.scheduleId !== undefined) q = q.where('schedule_id', '=', filters.scheduleId);
  if (filters.matchesNothing !== undefined) q = q.where(sql<boolean>`1 = 0`);
  if (page.after) {
    const { value, id } = page.after;
    const cmp = sql.raw(page.order === 'desc' ? '<' : '>');
    // A row-value comparison, (key, id) < (value, id): both planners turn it into an index range, where
    // the equivalent `key < v OR (key = v AND id < i)` made SQLite walk the index from the top.
    q = q.where(sql<boolean>`(${sortKey}, runs.id) ${cmp} (${value}, ${id})`);
  }
  return q.orderBy(sortKey, page.order).orderBy('id', page.order).limit(page.fetch);
}

/**
 * What a runs page sorts by: a column, or for `agent` the skill with runs without one after the others
 * in ascending order (a '0'/'1' prefix keeps the key one comparable string for the keyset).
 */
function sortExpression(dialect: Dialect, sortBy: RunsSortKey): RawBuilder<string> {
  if (sortBy !== 'agent') return sql<string>`${sql.ref(`runs.${sortBy}`)}`;
  const skill = jsonTextField(dialect, 'resolved_config', 'skill_spec');
  return sql<string>`(case when ${skill} is null then '1' else '0' || ${skill} end)`;
}

/** Case-insensitive LIKE (PostgreSQL ILIKE; SQLite's LIKE already ignores ASCII case). */
function containsText(dialect: Dialect, text: Expression<string | null>, pattern: string) {
  return dialect === 'postgres' ? sql<SqlBool>`${text} ilike ${pattern} escape '\\'` : sql<SqlBool>`${text} like ${pattern} escape '\\'`;
}

/** Attachment metadata of some runs of the team (no bytes). */
export async function listAttachmentMeta(db: Db, teamId: string, runIds: string[]): Promise<AttachmentMeta[]> {
  if (runIds.length === 0) return [];
  const rows = await teamScope(db, teamId)
    .selectFrom('run_attachments')
    .select(['run_id', 'file_name', 'mime_type', 'size'])
    .where('run_id', 'in', runIds)
    .orderBy('run_id')
    .orderBy('file_name')
    .execute();
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

export async function findAttachment(db: Db, teamId: string, runId: string, fileName: string): Promise<AttachmentRow | undefined> {
  const row = await teamScope(db, teamId)
    .selectFrom('run_attachments')
    .selectAll()
    .where('run_id', '=', runId)
    .where('file_name', '=', fileName)
    .executeTakeFirst();
  return row ? { ...row, size: Number(row.size), data: toBuffer(row.data) } : undefined;
}

/**
 * When the newest run of the team that started from each of `skillSpecs` was created (GET /agent's
 * `last_run_timestamp`); specs no run used are absent. Served by runs_team_skill_created_idx.
 */
export async function lastRunCreatedAtBySkillSpec(db: Db, teamId: string, skillSpecs: readonly string[]): Promise<Map<string, Timestamp>> {
  const dialect = dialectOfDb(db);
  const skill = jsonTextField(dialect, 'resolved_config', 'skill_spec');
  const found = new Map<string, Timestamp>();
  // Bounded IN lists: both drivers limit the parameters of one statement.
  for (let i = 0; i < skillSpecs.length; i += 500) {
    const rows = await teamScope(db, teamId)
      .selectFrom('runs')
      .select([skill.as('skill_spec'), (eb) => eb.fn.max('created_at').as('last')])
      .where(skill, 'in', skillSpecs.slice(i, i + 500))
      .groupBy(skill)
      .execute();
    for (const row of rows) if (row.skill_spec !== null && row.last !== null) found.set(row.skill_spec, row.last);
  }
  return found;
}

/** The newest run of the team that selected each environment (GET /agent/environments); served by runs_team_environment_created_idx. */
export async function newestRunByEnvironment(
  db: Db,
  teamId: string,
  environmentIds: readonly string[],
): Promise<Map<string, Pick<RunRow, 'id' | 'title' | 'state' | 'status_message' | 'created_at' | 'updated_at' | 'started_at'>>> {
  const environment = jsonTextField(dialectOfDb(db), 'resolved_config', 'environment_id');
  const newest = new Map<string, Pick<RunRow, 'id' | 'title' | 'state' | 'status_message' | 'created_at' | 'updated_at' | 'started_at'>>();
  // One short index walk per environment (a page holds at most 500).
  for (const environmentId of environmentIds) {
    const row = await teamScope(db, teamId)
      .selectFrom('runs')
      .select(['id', 'title', 'state', 'status_message', 'created_at', 'updated_at', 'started_at'])
      .where(environment, '=', environmentId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) newest.set(environmentId, row);
  }
  return newest;
}

export async function teamHasEnvironment(db: Db, teamId: string, environmentId: string): Promise<boolean> {
  const row = await teamScope(db, teamId).selectFrom('environments').select('id').where('id', '=', environmentId).executeTakeFirst();
  return row !== undefined;
}

/** The run's attachments with their bytes, in the order they were given (the worker writes them as files). */
export async function listAttachments(db: Db, teamId: string, runId: string): Promise<Array<Pick<AttachmentRow, 'file_name' | 'mime_type' | 'data'>>> {
  const rows = await teamScope(db, teamId)
    .selectFrom('run_attachments')
    .select(['file_name', 'mime_type', 'data'])
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
