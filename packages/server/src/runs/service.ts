/**
 * Rules of the runs API. State changes go through ./transitions, the conversation is read through
 * ./conversation; reads and inserts through ./repository (always team-scoped).
 */
import type { Kysely } from 'kysely';
import { listArtifactMeta, type ArtifactMeta } from '../artifacts/repository';
import { toArtifactItem } from '../artifacts/service';
import { usdOf } from '../budgets/money';
import { refuseWhenTeamBudgetSpent } from '../budgets/service';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newRunId, newSessionId } from '../crypto/ids';
import type { Database } from '../db/tables';
import type { ResolvedAgentConfig } from './contract';
import type { components } from '@agent-runs/contract';
import type { Principal } from '../api-keys/service';
import { filterFingerprint, keysetPage, type SortOrder } from '../pagination';
import { conflict, invalidRequest, resourceNotFound } from '../problems';
import { InvalidConfigError } from '../engine/runners/model-config';
import { advertisedSkills } from '../skills/catalog';
import { knownConfigFields, resolveAgentConfig, type AgentConfigInput } from './config';
import { conversationIdFor } from './conversation';
import { streamConversation } from './conversation-stream';
import type { RunsSortKey } from './cursor';
import {
  findAttachment,
  findRun,
  insertAttachments,
  insertRun,
  insertRunMetadata,
  listAttachmentMeta,
  listRunRows,
  runStatusMessage,
  runUsage,
  sessionLinkOf,
  type AttachmentMeta,
  type AttachmentRow,
  type RunFilters,
  type RunItemRow,
  type RunListRow,
  type StoredUsage,
} from './repository';
import { isFollowupResumeState, isLeasedState, isTerminalState, type RunState } from './states';
import { acceptFollowup, recordRunCreated, requestCancel } from './transitions';
import { recordRunQueued } from '../telemetry/spans';

export const MAX_ATTACHMENTS = 5;
export const TITLE_MAX_LENGTH = 80;
/** Bounds of what one request may store per run (contract: RunAgentRequest): 256 KiB of prompt, a one-line title. */
export const PROMPT_MAX_CHARS = 262_144;
export const TITLE_MAX_CHARS = 200;
/** A runs page stops once its JSON passes this (contract: listRuns), whatever `limit` asks. */
export const RUNS_PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Rows a page reads first: the default page size, so a default listing is one query. */
const RUNS_FIRST_READ = 20;

type Schemas = components['schemas'];
export type RunAttachmentInput = Schemas['RunAttachmentInput'];
/** RunAgentRequest (unknown fields pass the validator; the Oz fields this service cannot honour are refused here). */
export type CreateRunInput = Schemas['RunAgentRequest'] & { config?: Record<string, unknown> };
export type RunMetadata = Schemas['RunMetadata'];
export type RunAgentResponse = Schemas['RunAgentResponse'];
export type RunItem = Schemas['RunItem'];
export type ListRunsResponse = Schemas['ListRunsResponse'];

/** Default title: the first non-blank line of the prompt, cut to 80 characters (code points). */
export function titleFromPrompt(prompt: string): string {
  const line =
    prompt
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return [...line].slice(0, TITLE_MAX_LENGTH).join('');
}

/** Length in code points (as JSON Schema's maxLength counts), only counted when it could matter. */
export function exceedsChars(text: string, max: number): boolean {
  return text.length > max && [...text].length > max;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 (standard alphabet, padded; whitespace-free) → bytes; undefined when malformed. */
export function decodeBase64(data: string): Buffer | undefined {
  return BASE64.test(data) ? Buffer.from(data, 'base64') : undefined;
}

function decodeAttachments(inputs: RunAttachmentInput[] | undefined): Array<RunAttachmentInput & { bytes: Buffer }> {
  const attachments = inputs ?? [];
  if (attachments.length > MAX_ATTACHMENTS) {
    throw invalidRequest(`A run takes at most ${MAX_ATTACHMENTS} attachments.`, [
      { path: '$.attachments', message: `must NOT have more than ${MAX_ATTACHMENTS} items` },
    ]);
  }
  const seen = new Set<string>();
  return attachments.map((a, i) => {
    const bytes = decodeBase64(a.data);
    if (!bytes) {
      throw invalidRequest(`attachments[${i}].data is not valid base64.`, [{ path: `$.attachments[${i}].data`, message: 'is not valid base64' }]);
    }
    if (seen.has(a.file_name)) {
      throw invalidRequest(`Two attachments are named "${a.file_name}"; file names must be unique.`, [
        { path: `$.attachments[${i}].file_name`, message: 'duplicates an earlier attachment' },
      ]);
    }
    seen.add(a.file_name);
    return { ...a, bytes };
  });
}

/** Oz's limit on a run's metadata (contract: RunMetadata); the key pattern and count are the validator's. */
export const METADATA_MAX_KEYS = 20;
export const METADATA_VALUE_MAX_BYTES = 256;

const refuse = (path: string, detail: string) => invalidRequest(detail, [{ path, message: 'not supported' }]);

/**
 * The Oz request fields this service cannot honour and that would change what the run does if ignored
 * (contract: RunAgentRequest; docs/decisions.md §Oz parity).
 */
function refuseUnsupportedOzFields(input: CreateRunInput): void {
  if (input.agent_identity_uid !== undefined) {
    throw refuse('$.agent_identity_uid', 'agent_identity_uid is not supported; dispatch factory work with POST /factories/{factoryUid}/runs.');
  }
  if (input.conversation_id !== undefined) {
    throw refuse('$.conversation_id', "conversation_id is not supported: continue a run's conversation with POST /agent/runs/{runId}/followups.");
  }
  refuseUnsupportedMode(input.mode, 'run');
  if (input.team === false) throw refuse('$.team', "team: false (a personal run) is not supported: every run belongs to the API key's team.");
  if (input.on_behalf_of !== undefined) throw refuse('$.on_behalf_of', 'on_behalf_of is not supported: this service has no users to attribute a run to.');
  if (input.interactive === true) throw refuse('$.interactive', 'interactive: true is not supported: runs of this service are not interactive.');
}

/** Oz's `mode` of a run, of its follow-up, or of every run of a schedule: only `normal` runs here. */
export function refuseUnsupportedMode(mode: string | undefined, what: 'run' | 'schedule'): void {
  if (mode !== undefined && mode !== 'normal') {
    throw refuse(
      '$.mode',
      `mode ${mode} is not supported${what === 'schedule' ? ' for the runs of a schedule' : ''}: this service has no approval step; only mode normal runs here.`,
    );
  }
}

/** The part of a request that says what a run does: createRun's body, a scheduled agent's. */
export interface RunDefinitionInput {
  prompt?: string | undefined;
  /** Oz's top-level `skill` of a run request (schedules have none). */
  skill?: string | undefined;
  config?: Record<string, unknown> | undefined;
}

/**
 * Checks what a run would do with a configuration (createRun's `config`, a schedule's `agent_config` —
 * named by `configPath`): the Oz config fields refused by name, the one skill, the prompt (or the skill-only
 * prompt). Shared with scheduled agents, so a schedule is refused exactly when the run it would start is.
 */
export function checkRunDefinition(input: RunDefinitionInput, configPath = '$.config'): { prompt: string; skill: string | undefined } {
  const config = input.config ?? {};
  const field = configPath.slice(2);
  if (config['worker_host'] !== undefined && config['worker_host'] !== 'warp') {
    throw refuse(`${configPath}.worker_host`, `${field}.worker_host is not supported: runs execute on this server's workers (omit it, or send "warp").`);
  }
  if (config['runner_id'] !== undefined) {
    throw refuse(
      `${configPath}.runner_id`,
      `${field}.runner_id is not supported: this service has no runners to choose from; its workers execute every run (setup commands belong to ${field}.environment_id).`,
    );
  }
  const sharing = config['session_sharing'] as { public_access?: unknown } | undefined;
  if (sharing?.public_access !== undefined) {
    throw refuse(
      `${configPath}.session_sharing.public_access`,
      `${field}.session_sharing.public_access is not supported: a run's session_link opens only for a person signed in with an API key of the team.`,
    );
  }
  const memoryStores = config['memory_stores'] as unknown[] | undefined;
  if (memoryStores !== undefined && memoryStores.length > 0) {
    throw refuse(`${configPath}.memory_stores`, `${field}.memory_stores is not supported: this service has no memory stores to attach.`);
  }
  const aws = (config['inference_providers'] as { aws?: { disabled?: unknown } } | undefined)?.aws;
  if (aws !== undefined && aws.disabled !== true) {
    throw refuse(
      `${configPath}.inference_providers.aws`,
      `${field}.inference_providers.aws is not supported: runs call this server's model provider (MODEL_BASE_URL), not AWS Bedrock.`,
    );
  }
  const skill = requestedSkill(input, configPath);
  if (input.prompt === undefined && skill === undefined) {
    const skillFields = `${configPath === '$.config' ? 'skill, ' : ''}${field}.skill_spec or ${field}.skills`;
    throw invalidRequest(`prompt is required unless a skill is given (${skillFields}).`, [
      { path: '$.prompt', message: 'prompt is required unless a skill is given' },
    ]);
  }
  if (input.prompt !== undefined && input.prompt.trim() === '') {
    throw invalidRequest('prompt must not be blank.', [{ path: '$.prompt', message: 'must not be blank' }]);
  }
  if (input.prompt !== undefined && exceedsChars(input.prompt, PROMPT_MAX_CHARS)) {
    throw invalidRequest(`prompt is longer than ${PROMPT_MAX_CHARS} characters.`, [
      { path: '$.prompt', message: `must NOT have more than ${PROMPT_MAX_CHARS} characters` },
    ]);
  }
  return { prompt: input.prompt ?? skillOnlyPrompt(skill!), skill };
}

/** The one skill of the run, from `skill`, `config.skill_spec` or `config.skills` (contract: RunAgentRequest). */
function requestedSkill(input: RunDefinitionInput, configPath: string): string | undefined {
  const config = input.config ?? {};
  const skills = config['skills'] as string[] | undefined;
  if (skills !== undefined) {
    const other = input.skill !== undefined ? '$.skill' : config['skill_spec'] !== undefined ? `${configPath}.skill_spec` : undefined;
    if (other) {
      throw invalidRequest(`${configPath.slice(2)}.skills and ${other.slice(2)} are mutually exclusive.`, [
        { path: `${configPath}.skills`, message: `mutually exclusive with ${other}` },
      ]);
    }
    return skills[0];
  }
  return input.skill ?? (config['skill_spec'] as string | undefined);
}

/**
 * The configuration as requested (the known fields, the skill as `skill_spec`) and resolved as the run
 * will use it; a configuration that does not resolve answers 400, its paths under `configPath`.
 */
export async function resolveRequestedConfig(
  ctx: Pick<ServerContext, 'db' | 'settings'>,
  teamId: string,
  config: Record<string, unknown> | undefined,
  skill: string | undefined,
  configPath = '$.config',
): Promise<{ requested: AgentConfigInput | undefined; resolved: ResolvedAgentConfig }> {
  const requested = knownConfigFields(skill === undefined ? config : { ...config, skill_spec: skill });
  try {
    return { requested, resolved: await resolveAgentConfig(ctx, teamId, requested) };
  } catch (err) {
    if (!(err instanceof InvalidConfigError)) throw err;
    if (configPath === '$.config') throw invalidRequest(err.message, err.errors);
    // The runner's errors name `config`; a schedule's configuration is `agent_config`.
    const rename = (text: string) => text.replace(/\$\.config\b/g, configPath).replace(/^config\./, `${configPath.slice(2)}.`);
    throw invalidRequest(
      rename(err.message),
      err.errors?.map((e) => ({ ...e, path: rename(e.path) })),
    );
  }
}

/** Oz's metadata limits beyond the schema (key count with inherited keys, NUL, bytes); shared with scheduled agents. */
export function checkMetadata(metadata: RunMetadata): void {
  if (Object.keys(metadata).length > METADATA_MAX_KEYS) {
    throw invalidRequest(`metadata holds more than ${METADATA_MAX_KEYS} keys (its parent's included).`, [
      { path: '$.metadata', message: `must NOT have more than ${METADATA_MAX_KEYS} properties` },
    ]);
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (value.includes('\0')) {
      throw invalidRequest(`metadata.${key} holds a NUL character.`, [{ path: `$.metadata.${key}`, message: 'must not contain NUL' }]);
    }
    if (Buffer.byteLength(value) > METADATA_VALUE_MAX_BYTES) {
      throw invalidRequest(`metadata.${key} is longer than ${METADATA_VALUE_MAX_BYTES} bytes.`, [
        { path: `$.metadata.${key}`, message: `must NOT be longer than ${METADATA_VALUE_MAX_BYTES} bytes of UTF-8` },
      ]);
    }
  }
}

const IMAGE_EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/** Oz's `images` as attachments `image-1.<ext>`, … after `attachments` (contract: RunAgentRequest.images). */
function attachmentsOf(input: CreateRunInput): RunAttachmentInput[] {
  const images = (input.images ?? []).map((image, i) => ({
    file_name: `image-${i + 1}.${IMAGE_EXTENSIONS[image.mime_type]}`,
    mime_type: image.mime_type,
    data: image.data,
  }));
  return [...(input.attachments ?? []), ...images];
}

/** Where a run made through createRun belongs beyond the team (factory dispatch sets the factory). */
export interface RunOrigin {
  factoryId?: string;
}

export async function createRun(ctx: ServerContext, principal: Principal, input: CreateRunInput, origin: RunOrigin = {}): Promise<RunAgentResponse> {
  refuseUnsupportedOzFields(input);
  const { prompt, skill } = checkRunDefinition(input);
  if (input.title !== undefined && exceedsChars(input.title, TITLE_MAX_CHARS)) {
    throw invalidRequest(`title is longer than ${TITLE_MAX_CHARS} characters.`, [
      { path: '$.title', message: `must NOT have more than ${TITLE_MAX_CHARS} characters` },
    ]);
  }
  const attachments = decodeAttachments(attachmentsOf(input));
  const parent = input.parent_run_id === undefined ? undefined : await findRun(ctx, principal.teamId, input.parent_run_id);
  if (input.parent_run_id !== undefined && !parent) {
    throw invalidRequest(`parent_run_id ${input.parent_run_id} names no run of this team.`, [
      { path: '$.parent_run_id', message: 'names no run of this team' },
    ]);
  }
  // A child inherits its parent's metadata; the request's keys override (contract: RunMetadata).
  const metadata =
    parent?.metadata || input.metadata ? { ...(parent?.metadata ? (JSON.parse(parent.metadata) as RunMetadata) : {}), ...input.metadata } : undefined;
  if (metadata) checkMetadata(metadata);
  const { requested, resolved } = await resolveRequestedConfig(ctx, principal.teamId, input.config, skill);
  await refuseWhenTeamBudgetSpent(ctx, principal.teamId);
  const title = input.title?.trim() ? input.title : titleFromPrompt(prompt) || 'Untitled run';

  const created = await ctx.db.transaction().execute((tx) =>
    insertQueuedRun(tx, ctx, {
      teamId: principal.teamId,
      title,
      prompt,
      source: 'API',
      creator: creatorOf(principal),
      requestedConfig: requested,
      resolvedConfig: resolved,
      ...(origin.factoryId ? { factoryId: origin.factoryId } : {}),
      ...(metadata ? { metadata } : {}),
      ...(parent ? { parentRunId: parent.id } : {}),
      attachments: attachments.map((a) => ({ file_name: a.file_name, mime_type: a.mime_type, bytes: a.bytes })),
    }),
  );
  announceNewRuns(ctx, principal.teamId, [created.run_id]);
  return created;
}

/** How runs (and schedules) record the API key that made them (contract: RunCreatorInfo). */
export const creatorOf = (principal: Principal): RunCreator => ({ type: 'service_account', uid: principal.keyId, display_name: principal.displayName });

/** The prompt of a run given only a skill (contract: RunAgentRequest.prompt); the skill is its base prompt. */
export const skillOnlyPrompt = (skillSpec: string): string => `Follow the instructions of the skill ${skillSpec}.`;

// ---------------------------------------------------------------------------------------------------------
// Shared run insertion: THE way a run row comes to exist (createRun above, factory dispatch, and the runs
// that webhook automations start inside the ingress's delivery transaction — automations/start-runs.ts).

export type RunCreator = Schemas['RunCreatorInfo'];
export type ScheduleInfo = Schemas['ScheduleInfo'];

/** A validated, resolved new run. */
export interface QueuedRunInput {
  teamId: string;
  title: string;
  prompt: string;
  source: string;
  creator: RunCreator;
  /** The configuration as requested (stored as `config`). */
  requestedConfig: object | undefined;
  resolvedConfig: ResolvedAgentConfig;
  factoryId?: string;
  automationId?: string;
  deliveryId?: string;
  metadata?: RunMetadata;
  parentRunId?: string;
  /** The scheduled agent that started it, as it is at this firing. */
  schedule?: ScheduleInfo;
  attachments: Array<{ file_name: string; mime_type: string; bytes: Buffer }>;
}

/**
 * After the commit that inserted runs of the team: wakes the workers and the team's run-event listeners
 * of this process (the team-wide stream sends each run's first state).
 */
export function announceNewRuns(ctx: Pick<ServerContext, 'runSignals' | 'notifyRunQueued'>, teamId: string, runIds: readonly string[]): void {
  if (runIds.length === 0) return;
  for (const runId of runIds) ctx.runSignals.notifyRunEvent(teamId, runId);
  ctx.notifyRunQueued();
}

/**
 * Inserts a QUEUED run, its attachments, its first state event, its initial turn and its outbound
 * notifications using `tx` — the caller's transaction, so the run commits (or not) together with whatever
 * else the caller writes — and announces it to other processes on commit. The caller calls `announceNewRuns` after the commit.
 */
export async function insertQueuedRun(
  tx: Kysely<Database>,
  ctx: Pick<ServerContext, 'clock' | 'runSignals' | 'notificationOutbox'>,
  input: QueuedRunInput,
): Promise<RunAgentResponse> {
  const now = toTimestamp(ctx.clock.now());
  const id = newRunId();
  const run = {
    id,
    team_id: input.teamId,
    title: input.title,
    prompt: input.prompt,
    state: 'QUEUED',
    source: input.source,
    creator_type: input.creator.type,
    creator_uid: input.creator.uid,
    creator_display_name: input.creator.display_name,
    creator_email: input.creator.email ?? null,
    status_message: null,
    image_digest: null,
    session_id: newSessionId(),
    config: input.requestedConfig ? JSON.stringify(input.requestedConfig) : null,
    resolved_config: JSON.stringify(input.resolvedConfig),
    runner: null,
    factory_id: input.factoryId ?? null,
    automation_id: input.automationId ?? null,
    delivery_id: input.deliveryId ?? null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    parent_run_id: input.parentRunId ?? null,
    schedule_id: input.schedule?.schedule_id ?? null,
    schedule: input.schedule ? JSON.stringify(input.schedule) : null,
    usage: null,
    event_seq: 0,
    lease_owner: null,
    lease_expires_at: null,
    claim_count: 0,
    cancel_requested_at: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
    // The worker that claims it continues this trace (telemetry/spans.ts).
    trace_context: recordRunQueued(id, input.source),
  };
  await insertRun(tx, run);
  if (input.metadata) await insertRunMetadata(tx, run, input.metadata);
  await insertAttachments(
    tx,
    input.attachments.map((a) => ({
      run_id: run.id,
      team_id: run.team_id,
      file_name: a.file_name,
      mime_type: a.mime_type,
      size: a.bytes.length,
      data: a.bytes,
      created_at: now,
    })),
  );
  await recordRunCreated(tx, ctx.notificationOutbox, run);
  await ctx.runSignals.announceInTransaction(tx, 'queued', run.team_id, run.id);
  return { run_id: run.id, task_id: run.id, state: 'QUEUED' };
}

// ---------------------------------------------------------------------------------------------------------

/** Whole seconds as an ISO 8601 duration, `PT2M30S` (Oz's `run_time`). */
export function isoDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const parts = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec || (!h && !m) ? `${sec}S` : ''}`;
  return `PT${parts}`;
}

/** The run's usage on the wire: its cost in USD where it is kept. */
const toRunUsage = ({ cost_micros, ...tokens }: StoredUsage): Schemas['RunUsage'] =>
  cost_micros === undefined ? tokens : { ...tokens, cost_usd: usdOf(cost_micros) };

export function toRunItem(
  ctx: Pick<ServerContext, 'settings' | 'clock'>,
  row: RunItemRow,
  attachments: AttachmentMeta[] = [],
  artifacts: ArtifactMeta[] = [],
): RunItem {
  const item: RunItem = {
    run_id: row.id,
    task_id: row.id,
    title: row.title,
    state: row.state as RunState,
    prompt: row.prompt,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.started_at) item.started_at = row.started_at;
  item.source = row.source as Schemas['RunSourceType'];
  item.creator = { type: row.creator_type, uid: row.creator_uid, display_name: row.creator_display_name };
  if (row.creator_email) item.creator.email = row.creator_email;
  const status = runStatusMessage(row);
  if (status) item.status_message = status;
  item.session_id = row.session_id;
  item.session_link = sessionLinkOf(ctx.settings.publicBaseUrl, row);
  if (row.resolved_config) item.agent_config = JSON.parse(row.resolved_config) as Schemas['AmbientAgentConfig'];
  item.available_skills = advertisedSkills(item.agent_config);
  item.conversation_id = conversationIdFor(row.id);
  if (row.factory_id) item.factory_uid = row.factory_id;
  if (row.image_digest) item.image_digest = row.image_digest;
  if (row.automation_id) item.automation_id = row.automation_id;
  if (row.delivery_id) item.delivery_id = row.delivery_id;
  if (attachments.length > 0) {
    item.attachments = attachments.map((a) => ({ file_name: a.file_name, mime_type: a.mime_type, size: a.size }));
  }
  const usage = runUsage(row);
  if (usage) item.usage = toRunUsage(usage);
  // Oz RunItem fields (docs/decisions.md §Oz parity).
  if (row.metadata) item.metadata = JSON.parse(row.metadata) as RunMetadata;
  if (row.parent_run_id) item.parent_run_id = row.parent_run_id;
  if (row.schedule) item.schedule = JSON.parse(row.schedule) as ScheduleInfo;
  if (row.started_at) {
    const end = isTerminalState(row.state) && row.completed_at ? Date.parse(row.completed_at) : ctx.clock.now().getTime();
    item.run_time = isoDuration((end - Date.parse(row.started_at)) / 1000);
  }
  item.is_run_type_cancellable = true;
  item.is_sandbox_running = isLeasedState(row.state);
  item.debug_agent_available = false;
  if (usage) item.request_usage = { total_tokens: usage.total_tokens };
  item.execution_location = 'REMOTE';
  item.executor = item.creator;
  item.artifacts = artifacts.map(toArtifactItem);
  item.scope = { type: 'Team', uid: row.team_id };
  return item;
}

const notFound = (runId: string) => resourceNotFound(`Run ${runId} not found.`);

export async function getRun(ctx: ServerContext, teamId: string, runId: string): Promise<RunItem> {
  const row = await findRun(ctx, teamId, runId);
  if (!row) throw notFound(runId);
  return toRunItem(ctx, row, await listAttachmentMeta(ctx.db, teamId, [runId]), await listArtifactMeta(ctx.db, teamId, [runId]));
}

export interface ListRunsQuery {
  limit: number;
  cursor?: string;
  sortBy: RunsSortKey;
  sortOrder: SortOrder;
  filters: RunFilters;
}

export async function listRuns(ctx: ServerContext, teamId: string, query: ListRunsQuery): Promise<ListRunsResponse> {
  const { sortBy, sortOrder, filters } = query;
  if (filters.ancestorRunId !== undefined && !(await findRun(ctx, teamId, filters.ancestorRunId))) {
    throw invalidRequest(`ancestor_run_id ${filters.ancestorRunId} names no run of this team.`, [
      { path: 'ancestor_run_id', message: 'names no run of this team' },
    ]);
  }
  const { items, page_info } = await keysetPage({
    ...query,
    sortKey: sortBy,
    order: sortOrder,
    // A cursor is valid only with the filters it was issued for (contract: listRuns).
    scope: filterFingerprint({ ...filters }),
    fetch: (after, limit) => listRunRows(ctx.db, teamId, filters, { sortBy, order: sortOrder, limit, ...(after ? { after } : {}) }),
    keyOf: (row) => ({ value: row.sort_key, id: row.id }),
    toItems: (rows) => runItemsOf(ctx, teamId, rows),
    // Rows are read in steps sized by the bytes left: 500 runs of 256 KiB prompts are never read (nor
    // answered) at once. The run that passes RUNS_PAGE_MAX_BYTES ends the page; the cursor follows it.
    maxBytes: RUNS_PAGE_MAX_BYTES,
    firstRead: RUNS_FIRST_READ,
  });
  return { runs: items, page_info };
}

async function runItemsOf(ctx: ServerContext, teamId: string, rows: RunListRow[]): Promise<RunItem[]> {
  // Most pages have no attachments or artifacts at all: then there is nothing more to read.
  const [attachments, artifacts] = await Promise.all([
    listAttachmentMeta(
      ctx.db,
      teamId,
      rows.filter((r) => r.has_attachments).map((r) => r.id),
    ),
    listArtifactMeta(
      ctx.db,
      teamId,
      rows.filter((r) => r.has_artifacts).map((r) => r.id),
    ),
  ]);
  const [attachmentsByRun, artifactsByRun] = [byRunId(attachments), byRunId(artifacts)];
  return rows.map((row) => toRunItem(ctx, row, attachmentsByRun.get(row.id), artifactsByRun.get(row.id)));
}

function byRunId<T extends { run_id: string }>(items: T[]): Map<string, T[]> {
  const byRun = new Map<string, T[]>();
  for (const item of items) byRun.set(item.run_id, [...(byRun.get(item.run_id) ?? []), item]);
  return byRun;
}

/** The Oz API's answers (contract: cancelRun): PENDING → 409 retryable, already terminal (CANCELLED included) → 400. */
export async function cancelRun(ctx: ServerContext, teamId: string, runId: string): Promise<string> {
  const result = await requestCancel(ctx, teamId, runId);
  if (result.ok) return result.run.id;
  if (result.reason === 'not_found') throw notFound(runId);
  const { state } = result.run;
  if (state === 'PENDING') throw conflict(`Run ${runId} is PENDING and cannot be cancelled yet; retry in a moment.`, { retryable: true });
  throw invalidRequest(`Run ${runId} is already ${state} (a terminal state) and cannot be cancelled.`);
}

export async function createFollowup(ctx: ServerContext, teamId: string, runId: string, input: Schemas['RunFollowupRequest']): Promise<RunAgentResponse> {
  refuseUnsupportedMode(input.mode, 'run');
  const { message } = input;
  if (message.trim() === '') {
    throw invalidRequest('message must not be blank.', [{ path: '$.message', message: 'must not be blank' }]);
  }
  // A follow-up that would start a finished run again is a start like any other (budgets/service.ts).
  const run = await findRun(ctx, teamId, runId);
  if (run && isFollowupResumeState(run.state)) await refuseWhenTeamBudgetSpent(ctx, teamId);
  const result = await acceptFollowup(ctx, teamId, runId, message);
  if (result.ok) return { run_id: result.run.id, task_id: result.run.id, state: result.run.state as RunState };
  if (result.reason === 'not_found') throw notFound(runId);
  throw conflict(`Run ${runId} is ${result.run.state}; it does not accept follow-ups.`);
}

/** The conversation as text produced as it is sent (./conversation-stream.ts). */
export async function getConversation(ctx: ServerContext, teamId: string, runId: string): Promise<AsyncIterable<string>> {
  const conversation = await streamConversation(ctx, teamId, runId);
  if (!conversation) throw notFound(runId);
  return conversation;
}

export async function getAttachment(ctx: ServerContext, teamId: string, runId: string, fileName: string): Promise<AttachmentRow> {
  const attachment = await findAttachment(ctx.db, teamId, runId, fileName);
  if (attachment) return attachment;
  if (!(await findRun(ctx, teamId, runId))) throw notFound(runId);
  throw resourceNotFound(`Run ${runId} has no attachment named "${fileName}".`);
}
