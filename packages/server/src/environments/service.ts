/**
 * Cloud environments (docs/decisions.md §CloudEnvironment): name (unique in the team), description,
 * setup commands and environment variables. Variable values are secrets: encrypted at rest as one JSON
 * object (SecretBox), write-only on the wire — answers carry only `env_var_names`.
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { components } from '../generated/api';
import { keysetPage, newestFirst } from '../pagination';
import { conflict, resourceNotFound } from '../problems';
import {
  deleteEnvironmentRow,
  findEnvironment,
  findEnvironments,
  insertEnvironment,
  listEnvironmentRows,
  updateEnvironmentRow,
  type EnvironmentRow,
} from './repository';

type Deps = Pick<ServerContext, 'db' | 'clock' | 'secrets'>;

export type CloudEnvironment = components['schemas']['CloudEnvironment'];

/** What a run needs from its environment (decrypted; never leaves the server). */
export interface EnvironmentForRun {
  id: string;
  name: string;
  setupCommands: string[];
  envVars: Record<string, string>;
}

function decryptVars(deps: Pick<Deps, 'secrets'>, row: EnvironmentRow): Record<string, string> {
  return row.env_vars ? (JSON.parse(deps.secrets.decrypt(row.env_vars)) as Record<string, string>) : {};
}

const encryptVars = (deps: Pick<Deps, 'secrets'>, vars: Record<string, string>): string | null =>
  Object.keys(vars).length > 0 ? deps.secrets.encrypt(JSON.stringify(vars)) : null;

export function toCloudEnvironment(deps: Pick<Deps, 'secrets'>, row: EnvironmentRow): CloudEnvironment {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    setup_commands: JSON.parse(row.setup_commands) as string[],
    env_var_names: Object.keys(decryptVars(deps, row)).sort(),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const nameTaken = (name: string) => conflict(`An environment named "${name}" already exists in this team.`, { retryable: false });

export async function createEnvironment(deps: Deps, teamId: string, input: components['schemas']['CreateEnvironmentRequest']): Promise<CloudEnvironment> {
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const row: EnvironmentRow = {
    id: newId('env', now),
    team_id: teamId,
    name: input.name,
    description: input.description ?? null,
    setup_commands: JSON.stringify(input.setup_commands ?? []),
    env_vars: encryptVars(deps, input.env_vars ?? {}),
    created_at: at,
    updated_at: at,
  };
  try {
    await insertEnvironment(deps.db, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
  return toCloudEnvironment(deps, row);
}

export async function listEnvironments(
  deps: Deps,
  teamId: string,
  query: { limit: number; cursor?: string },
): Promise<components['schemas']['ListEnvironmentsResponse']> {
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listEnvironmentRows(deps.db, teamId, { limit, after }),
    toItems: (rows) => rows.map((row) => toCloudEnvironment(deps, row)),
  });
  return { environments: items, page_info };
}

const notFound = (id: string) => resourceNotFound(`Environment ${id} not found.`);

export async function getEnvironment(deps: Deps, teamId: string, id: string): Promise<CloudEnvironment> {
  const row = await findEnvironment(deps.db, teamId, id);
  if (!row) throw notFound(id);
  return toCloudEnvironment(deps, row);
}

/** PATCH: given fields replace (setup_commands and env_vars as a whole); omitted fields stay. */
export async function updateEnvironment(deps: Deps, teamId: string, id: string, input: components['schemas']['UpdateEnvironmentRequest']): Promise<CloudEnvironment> {
  const changes: Parameters<typeof updateEnvironmentRow>[3] = { updated_at: toTimestamp(deps.clock.now()) };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.setup_commands !== undefined) changes.setup_commands = JSON.stringify(input.setup_commands);
  if (input.env_vars !== undefined) changes.env_vars = encryptVars(deps, input.env_vars);
  let row: EnvironmentRow | undefined;
  try {
    row = await updateEnvironmentRow(deps.db, teamId, id, changes);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? '');
    throw err;
  }
  if (!row) throw notFound(id);
  return toCloudEnvironment(deps, row);
}

export async function deleteEnvironment(deps: Deps, teamId: string, id: string): Promise<void> {
  if (!(await deleteEnvironmentRow(deps.db, teamId, id))) throw notFound(id);
}

/**
 * The environments of the team named by `ids`, in the Oz API's CloudEnvironmentConfig shape (what a
 * scheduled agent shows of its environment; no variables), by id. Ids of no environment are left out.
 */
export async function environmentConfigs(
  deps: Pick<Deps, 'db'>,
  teamId: string,
  ids: readonly string[],
): Promise<Map<string, components['schemas']['CloudEnvironmentConfig']>> {
  const rows = await findEnvironments(deps.db, teamId, [...new Set(ids)]);
  return new Map(rows.map((row) => [row.id, { name: row.name, description: row.description, setup_commands: JSON.parse(row.setup_commands) as string[] }]));
}

/** The environment a run selected, decrypted (environment-setup.ts), or undefined if it was deleted. */
export async function loadEnvironmentForRun(deps: Pick<Deps, 'db' | 'secrets'>, teamId: string, id: string): Promise<EnvironmentForRun | undefined> {
  const row = await findEnvironment(deps.db, teamId, id);
  if (!row) return undefined;
  return { id: row.id, name: row.name, setupCommands: JSON.parse(row.setup_commands) as string[], envVars: decryptVars(deps, row) };
}
