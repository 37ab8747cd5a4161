/**
 * Scheduled agents (Oz's `/agent/schedules`; docs/decisions.md §Schedules): rules and views. A schedule is
 * a cron expression in a time zone (./cron.ts) plus what each run does — checked exactly as a run request
 * is (runs/service.ts checkRunDefinition, resolveRequestedConfig, checkMetadata) — and its next slot,
 * `next_run_at`, which the firing loop (./firing.ts, engine/scheduler.ts) claims. Reads and writes go
 * through ./repository, always team-scoped.
 */
import type { Kysely } from 'kysely';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { dialectOfDb, forUpdate } from '../db/dialect';
import type { Database } from '../db/tables';
import { environmentConfigs } from '../environments/service';
import type { components } from '@agent-runs/contract';
import type { Principal } from '../api-keys/service';
import type { AuditTrail } from '../audit/trail';
import { keysetPage } from '../pagination';
import { invalidRequest, limitExceeded, resourceNotFound } from '../problems';
import { checkMetadata, checkRunDefinition, creatorOf, refuseUnsupportedMode, resolveRequestedConfig, type RunCreator } from '../runs/service';
import { lockTeam } from '../teams/repository';
import { checkSchedule, InvalidScheduleError, nextSlotAfter } from './cron';
import {
  countSchedules,
  deleteScheduleRow,
  findSchedule,
  insertSchedule,
  listScheduleRows,
  parseJsonColumn,
  updateScheduleDefinition,
  type ScheduleRow,
} from './repository';
import { teamScope } from '../db/scoped';

type Schemas = components['schemas'];
export type ScheduledAgentItem = Schemas['ScheduledAgentItem'];
export type CreateScheduledAgentInput = Schemas['CreateScheduledAgentRequest'];
export type UpdateScheduledAgentInput = Schemas['UpdateScheduledAgentRequest'];

type Deps = Pick<ServerContext, 'db' | 'clock' | 'settings' | 'notifyScheduleChanged'>;

/** Where the Oz API puts a schedule's agent configuration (a run request calls it `config`). */
const CONFIG_PATH = '$.agent_config';
const DEFAULT_TIME_ZONE = 'UTC';

const refuse = (path: string, detail: string) => invalidRequest(detail, [{ path, message: 'not supported' }]);

/** The stored definition a request describes, checked as the run it starts would be. */
type Definition = Pick<ScheduleRow, 'name' | 'cron_schedule' | 'time_zone' | 'prompt' | 'config' | 'metadata' | 'enabled'> & {
  /** The first slot after now (stored only when the schedule is enabled). */
  firstSlot: string;
};

/**
 * Checks a create or update body (docs/decisions.md §Oz parity for the refused fields) and resolves its
 * configuration as createRun would, answering 400 naming the field for anything a run would refuse.
 */
async function checkDefinition(
  deps: Pick<Deps, 'db' | 'clock' | 'settings'>,
  teamId: string,
  input: CreateScheduledAgentInput | UpdateScheduledAgentInput,
  timeZone: string,
): Promise<Definition> {
  if (input.agent_uid !== undefined) {
    throw refuse('$.agent_uid', 'agent_uid is not supported: this service has no agent identities; the runs of a schedule execute as the key that created it.');
  }
  if (input.team === false) throw refuse('$.team', "team: false (a personal schedule) is not supported: every schedule belongs to the API key's team.");
  refuseUnsupportedMode(input.mode, 'schedule');
  let schedule;
  try {
    schedule = checkSchedule(input.cron_schedule, timeZone, deps.clock.now(), deps.settings.limits.scheduleMinIntervalSeconds);
  } catch (err) {
    if (err instanceof InvalidScheduleError) throw invalidRequest(err.message, [{ path: err.path, message: err.message }]);
    throw err;
  }
  const config = input.agent_config as Record<string, unknown> | undefined;
  const { prompt, skill } = checkRunDefinition({ prompt: input.prompt, config }, CONFIG_PATH);
  if (input.metadata) checkMetadata(input.metadata);
  const { requested } = await resolveRequestedConfig(deps, teamId, config, skill, CONFIG_PATH);
  return {
    name: input.name,
    cron_schedule: input.cron_schedule,
    time_zone: schedule.timeZone,
    prompt,
    config: requested ? JSON.stringify(requested) : null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    enabled: input.enabled === false ? 0 : 1,
    firstSlot: toTimestamp(schedule.firstSlot),
  };
}

/** The contract's ScheduledAgentItem; `environment` is the one its configuration names, when it exists. */
export function toScheduledAgentItem(row: ScheduleRow, environment?: Schemas['CloudEnvironmentConfig']): ScheduledAgentItem {
  const item: ScheduledAgentItem = {
    id: row.id,
    name: row.name,
    cron_schedule: row.cron_schedule,
    time_zone: row.time_zone,
    enabled: row.enabled === 1,
    prompt: row.prompt,
    last_spawn_error: row.last_spawn_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: JSON.parse(row.created_by) as RunCreator,
    updated_by: JSON.parse(row.updated_by) as RunCreator,
    history: {
      last_ran: row.last_ran_at,
      next_run: row.next_run_at,
      last_run_id: row.last_run_id,
      last_slot: row.last_slot,
      last_fired_at: row.last_fired_at,
      last_outcome: row.last_outcome,
      skipped_slots: Number(row.skipped_slots),
    },
    scope: { type: 'Team', uid: row.team_id },
  };
  const config = parseJsonColumn<Schemas['AmbientAgentConfig']>(row.config);
  if (config) item.agent_config = config;
  const metadata = parseJsonColumn<Schemas['RunMetadata']>(row.metadata);
  if (metadata) item.metadata = metadata;
  if (environment) item.environment = environment;
  return item;
}

const environmentIdOf = (row: ScheduleRow): string | undefined => parseJsonColumn<{ environment_id?: string }>(row.config)?.environment_id;

/** The items of some rows of one team, with the environments they name read in one query. */
async function itemsOf(deps: Pick<Deps, 'db'>, teamId: string, rows: ScheduleRow[]): Promise<ScheduledAgentItem[]> {
  const environments = await environmentConfigs(
    deps,
    teamId,
    rows.flatMap((row) => environmentIdOf(row) ?? []),
  );
  return rows.map((row) => toScheduledAgentItem(row, environments.get(environmentIdOf(row) ?? '')));
}

const itemOf = async (deps: Pick<Deps, 'db'>, row: ScheduleRow): Promise<ScheduledAgentItem> => (await itemsOf(deps, row.team_id, [row]))[0]!;

const notFound = (id: string) => resourceNotFound(`Scheduled agent ${id} not found.`);

export async function createScheduledAgent(deps: Deps, principal: Principal, input: CreateScheduledAgentInput, audit: AuditTrail): Promise<ScheduledAgentItem> {
  const definition = await checkDefinition(deps, principal.teamId, input, input.time_zone ?? DEFAULT_TIME_ZONE);
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const { firstSlot, ...stored } = definition;
  const creator = JSON.stringify(creatorOf(principal));
  const row: ScheduleRow = {
    id: newId('sch', now),
    team_id: principal.teamId,
    ...stored,
    next_run_at: stored.enabled ? firstSlot : null,
    version: 1,
    created_by: creator,
    updated_by: creator,
    created_at: at,
    updated_at: at,
    last_ran_at: null,
    last_run_id: null,
    last_slot: null,
    last_fired_at: null,
    last_outcome: null,
    last_spawn_error: null,
    skipped_slots: 0,
  };
  const limit = deps.settings.limits.schedulesPerTeam;
  await deps.db.transaction().execute(async (tx) => {
    // One creation per team at a time, so two concurrent creates cannot both see room for one more.
    await lockTeam(tx, principal.teamId);
    if ((await countSchedules(tx, principal.teamId)) >= limit) {
      throw limitExceeded(`A team holds at most ${limit} scheduled agents (SCHEDULES_PER_TEAM); delete one first.`);
    }
    await insertSchedule(tx, row);
    await audit.record(tx, row.id);
  });
  deps.notifyScheduleChanged();
  return itemOf(deps, row);
}

export async function listScheduledAgents(
  deps: Pick<Deps, 'db'>,
  teamId: string,
  query: { limit: number; cursor?: string },
): Promise<Schemas['ListScheduledAgentsResponse']> {
  const { items, page_info } = await keysetPage({
    ...query,
    sortKey: 'name',
    order: 'asc',
    fetch: (after, limit) => listScheduleRows(deps.db, teamId, { limit, after }),
    keyOf: (row) => ({ value: row.name, id: row.id }),
    toItems: (rows) => itemsOf(deps, teamId, rows),
  });
  return { schedules: items, page_info };
}

export async function getScheduledAgent(deps: Pick<Deps, 'db'>, teamId: string, id: string): Promise<ScheduledAgentItem> {
  const row = await findSchedule(deps.db, teamId, id);
  if (!row) throw notFound(id);
  return itemOf(deps, row);
}

/** The schedule's row, locked until the transaction ends (PostgreSQL; SQLite's transactions are serial). */
async function lockSchedule(tx: Kysely<Database>, teamId: string, id: string): Promise<ScheduleRow> {
  const row = await forUpdate(teamScope(tx, teamId).selectFrom('schedules').selectAll().where('id', '=', id), dialectOfDb(tx)).executeTakeFirst();
  if (!row) throw notFound(id);
  return row;
}

/**
 * PUT: the whole definition, as the Oz API's update (contract: updateScheduledAgent). The next slot is
 * computed again from now when the expression, the zone or `enabled` changes; otherwise the pending slot is
 * left as the firing loop last set it (never written back from this read, which could fire it twice).
 */
export async function updateScheduledAgent(
  deps: Deps,
  principal: Principal,
  id: string,
  input: UpdateScheduledAgentInput,
  audit: AuditTrail,
): Promise<ScheduledAgentItem> {
  const row = await deps.db.transaction().execute(async (tx) => {
    const current = await lockSchedule(tx, principal.teamId, id);
    const { firstSlot, ...definition } = await checkDefinition({ ...deps, db: tx }, principal.teamId, input, input.time_zone ?? current.time_zone);
    const timingChanged =
      definition.cron_schedule !== current.cron_schedule || definition.time_zone !== current.time_zone || definition.enabled !== current.enabled;
    const updated = await updateScheduleDefinition(tx, principal.teamId, id, {
      ...definition,
      ...(timingChanged ? { next_run_at: definition.enabled ? firstSlot : null } : {}),
      updated_by: JSON.stringify(creatorOf(principal)),
      updated_at: toTimestamp(deps.clock.now()),
    });
    if (updated) await audit.record(tx, id);
    return updated;
  });
  if (!row) throw notFound(id);
  deps.notifyScheduleChanged();
  return itemOf(deps, row);
}

export async function deleteScheduledAgent(
  deps: Pick<Deps, 'db'>,
  teamId: string,
  id: string,
  audit: AuditTrail,
): Promise<Schemas['DeleteScheduledAgentResponse']> {
  await deps.db.transaction().execute(async (tx) => {
    if (!(await deleteScheduleRow(tx, teamId, id))) throw notFound(id);
    await audit.record(tx, id);
  });
  return { success: true };
}

/**
 * Pause (`enabled: false`, no next slot) or resume (the first slot after now; slots that passed while it
 * was paused are not made up). A schedule already in that state is answered unchanged (and nothing is audited).
 */
export async function setScheduledAgentEnabled(deps: Deps, principal: Principal, id: string, enabled: boolean, audit: AuditTrail): Promise<ScheduledAgentItem> {
  const row = await deps.db.transaction().execute(async (tx) => {
    const current = await lockSchedule(tx, principal.teamId, id);
    if ((current.enabled === 1) === enabled) return current;
    const now = deps.clock.now();
    const next = enabled ? nextSlotAfter(current.cron_schedule, current.time_zone, now) : null;
    const updated = await updateScheduleDefinition(tx, principal.teamId, id, {
      enabled: enabled ? 1 : 0,
      next_run_at: next ? toTimestamp(next) : null,
      updated_by: JSON.stringify(creatorOf(principal)),
      updated_at: toTimestamp(now),
    });
    if (updated) await audit.record(tx, id);
    return updated;
  });
  if (!row) throw notFound(id);
  if (enabled) deps.notifyScheduleChanged();
  return itemOf(deps, row);
}
