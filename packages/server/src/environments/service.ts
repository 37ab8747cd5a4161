/**
 * Cloud environments (contract: CloudEnvironment): name (unique in the team), description, setup commands
 * and environment variables, answered in the Oz API's shape. `env_vars` values are secrets: encrypted at
 * rest as one JSON object (SecretBox), write-only on the wire — answers carry only `env_var_names` — and
 * given to the setup commands only; `plain_env_vars` are readable, and the agent gets them too
 * (docs/decisions.md §Write-only environment variables and the setup log).
 *
 * The Oz fields of CloudEnvironmentConfig this service cannot honour are refused by name on create and
 * update (docs/decisions.md §Oz parity); `docker_image` must name an image of an allowed registry
 * (docs/decisions.md §Environment images); what an answer says about runs (`last_task_created`,
 * `setup_failed`) is read from the team's newest run that selected the environment.
 */
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { components } from '@agent-runs/contract';
import type { Principal } from '../api-keys/service';
import type { AuditTrail } from '../audit/trail';
import { parseImageReference, type ImageReference } from '../engine/images/reference';
import { createRegistryPolicy } from '../engine/images/registries';
import { keysetPage } from '../pagination';
import { conflict, invalidRequest, resourceNotFound } from '../problems';
import { newestRunByEnvironment, runStatusMessage } from '../runs/repository';
import { findTeamSecret } from '../secrets/repository';
import type { RunState } from '../runs/states';
import {
  deleteEnvironmentRow,
  ENVIRONMENT_SORT_COLUMN,
  ENVIRONMENT_SORT_ORDER,
  findEnvironment,
  findEnvironments,
  insertEnvironment,
  listEnvironmentRows,
  updateEnvironmentRow,
  type EnvironmentRow,
  type EnvironmentSort,
} from './repository';
import { mergeRepositories, parseRepositories, repositoryConfigFields, type EnvironmentRepositories, type RepositoryFields } from './repositories';

type Deps = Pick<ServerContext, 'db' | 'clock' | 'secrets'>;
type WriteDeps = Deps & Pick<ServerContext, 'settings'>;
type Schemas = components['schemas'];

export type CloudEnvironment = Schemas['CloudEnvironment'];
type CreateEnvironmentRequest = Schemas['CreateEnvironmentRequest'];
type UpdateEnvironmentRequest = Schemas['UpdateEnvironmentRequest'];
type CreatorInfo = Schemas['RunCreatorInfo'];
type NewestRun = Awaited<ReturnType<typeof newestRunByEnvironment>> extends Map<string, infer R> ? R : never;

/** What a run needs from its environment (decrypted; never leaves the server). */
export interface EnvironmentForRun {
  id: string;
  name: string;
  setupCommands: string[];
  /** Secrets: the setup commands only. */
  envVars: Record<string, string>;
  /** Readable: the setup commands and the agent's processes. */
  plainEnvVars: Record<string, string>;
  repositories: EnvironmentRepositories | undefined;
  /** The image reference runs start in (docs/sandbox.md §Image root). */
  dockerImage: string | undefined;
  /** The team secret with the registry credentials. */
  registrySecretName: string | undefined;
}

/**
 * The error codes of a run that failed setting its environment up: a setup command
 * (engine/environment-setup.ts), a repository's checkout (engine/repositories/), its image (engine/images/).
 */
const SETUP_FAILED_CODES = new Set(['environment_setup_failed', 'repository_unavailable', 'image_unavailable']);

function decryptVars(deps: Pick<Deps, 'secrets'>, row: EnvironmentRow): Record<string, string> {
  return row.env_vars ? (JSON.parse(deps.secrets.decrypt(row.env_vars)) as Record<string, string>) : {};
}

const encryptVars = (deps: Pick<Deps, 'secrets'>, vars: Record<string, string>): string | null =>
  Object.keys(vars).length > 0 ? deps.secrets.encrypt(JSON.stringify(vars)) : null;

const parsePlainVars = (row: Pick<EnvironmentRow, 'plain_env_vars'>): Record<string, string> =>
  row.plain_env_vars ? (JSON.parse(row.plain_env_vars) as Record<string, string>) : {};

const plainVarsColumn = (vars: Record<string, string>): string | null => (Object.keys(vars).length > 0 ? JSON.stringify(vars) : null);

/** A name is either a secret or plain, never both: which value the setup commands would see must not be a guess. */
function refuseSharedNames(secret: Record<string, string>, plain: Record<string, string>): void {
  const shared = Object.keys(plain).filter((name) => Object.hasOwn(secret, name));
  if (shared.length === 0) return;
  throw invalidRequest(
    `${shared.join(', ')} ${shared.length === 1 ? 'is' : 'are'} in both env_vars and plain_env_vars; a variable is either secret or plain.`,
    shared.map((name) => ({ path: `$.plain_env_vars.${name}`, message: 'also in env_vars' })),
  );
}

const actorOf = (principal: Principal): CreatorInfo => ({ type: 'service_account', uid: principal.keyId, display_name: principal.displayName });

/** Oz's CloudEnvironmentConfig of an environment: the part a run (or a schedule) shows of it. */
const toEnvironmentConfig = (row: EnvironmentRow): components['schemas']['CloudEnvironmentConfig'] => ({
  name: row.name,
  ...(row.description ? { description: row.description } : {}),
  setup_commands: JSON.parse(row.setup_commands) as string[],
  ...repositoryConfigFields(parseRepositories(row.repositories)),
  ...(row.docker_image ? { docker_image: row.docker_image } : {}),
  ...(row.registry_secret_name ? { registry_secret_name: row.registry_secret_name } : {}),
});

export function toCloudEnvironment(deps: Pick<Deps, 'secrets'>, row: EnvironmentRow, newest: NewestRun | undefined): CloudEnvironment {
  const environment: CloudEnvironment = {
    uid: row.id,
    config: toEnvironmentConfig(row),
    last_updated: row.updated_at,
    last_task_run_timestamp: newest?.created_at ?? null,
    setup_failed: newest?.state === 'FAILED' && SETUP_FAILED_CODES.has(runStatusMessage(newest)?.error_code ?? ''),
    scope: { type: 'Team', uid: row.team_id },
    env_var_names: Object.keys(decryptVars(deps, row)).sort(),
    plain_env_vars: parsePlainVars(row),
    created_at: row.created_at,
  };
  if (newest) {
    environment.last_task_created = {
      id: newest.id,
      title: newest.title,
      state: newest.state as RunState,
      created_at: newest.created_at,
      updated_at: newest.updated_at,
      started_at: newest.started_at,
    };
  }
  if (row.creator) environment.creator = JSON.parse(row.creator) as CreatorInfo;
  if (row.last_editor) environment.last_editor = JSON.parse(row.last_editor) as CreatorInfo;
  return environment;
}

async function answer(deps: Deps, row: EnvironmentRow): Promise<CloudEnvironment> {
  const newest = await newestRunByEnvironment(deps.db, row.team_id, [row.id]);
  return toCloudEnvironment(deps, row, newest.get(row.id));
}

const refuse = (path: string, detail: string) => invalidRequest(detail, [{ path, message: 'not supported' }]);

/** A docker_image that is an image reference from a registry the operator allows (IMAGE_REGISTRIES). */
function checkDockerImage(deps: Pick<WriteDeps, 'settings'>, image: string | null | undefined): void {
  if (image === undefined || image === null) return;
  const ref = parseImageReference(image);
  const why = 'error' in ref ? ref.error : undefined;
  if (why) throw invalidRequest(`docker_image "${image}" is not an image reference: ${why}.`, [{ path: '$.docker_image', message: why }]);
  const decision = createRegistryPolicy(deps.settings.images.registries).checkName((ref as ImageReference).registry);
  if (!decision.allowed)
    throw invalidRequest(`docker_image "${image}" cannot be used: ${decision.reason}.`, [{ path: '$.docker_image', message: decision.reason }]);
}

/** The Oz CloudEnvironmentConfig fields a request may carry that this service cannot honour (contract: createEnvironment). */
function refuseUnsupportedOzFields(input: CreateEnvironmentRequest | UpdateEnvironmentRequest): void {
  const provider = Object.keys(input.providers ?? {})[0];
  if (provider !== undefined) {
    throw refuse(
      `$.providers.${provider}`,
      `providers.${provider} is not supported: this service has no cloud identity federation; give credentials as env_vars.`,
    );
  }
}

/** The repository fields as stored after this request; a named token secret must exist in the team. */
async function repositoriesColumn(deps: Deps, teamId: string, previous: string | null | undefined, input: RepositoryFields): Promise<string | null> {
  const name = input.git_token_secret_name;
  if (name && !(await findTeamSecret(deps.db, teamId, name))) {
    throw invalidRequest(`git_token_secret_name names the secret ${name}, which this team does not have; create it first (PUT /secrets/${name}).`, [
      { path: '$.git_token_secret_name', message: 'no such team secret' },
    ]);
  }
  const merged = mergeRepositories(parseRepositories(previous ?? null), input);
  return merged ? JSON.stringify(merged) : null;
}

const nameTaken = (name: string) => conflict(`An environment named "${name}" already exists in this team.`, { retryable: false });

export async function createEnvironment(deps: WriteDeps, principal: Principal, input: CreateEnvironmentRequest, audit: AuditTrail): Promise<CloudEnvironment> {
  refuseUnsupportedOzFields(input);
  checkDockerImage(deps, input.docker_image);
  refuseSharedNames(input.env_vars ?? {}, input.plain_env_vars ?? {});
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const actor = JSON.stringify(actorOf(principal));
  const row: EnvironmentRow = {
    id: newId('env', now),
    team_id: principal.teamId,
    name: input.name,
    description: input.description ?? null,
    setup_commands: JSON.stringify(input.setup_commands ?? []),
    env_vars: encryptVars(deps, input.env_vars ?? {}),
    plain_env_vars: plainVarsColumn(input.plain_env_vars ?? {}),
    repositories: await repositoriesColumn(deps, principal.teamId, undefined, input),
    docker_image: input.docker_image ?? null,
    registry_secret_name: input.registry_secret_name ?? null,
    creator: actor,
    last_editor: actor,
    created_at: at,
    updated_at: at,
  };
  try {
    await deps.db.transaction().execute(async (tx) => {
      await insertEnvironment(tx, row);
      await audit.record(tx, row.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
  // A new environment: no run can have selected it yet.
  return toCloudEnvironment(deps, row, undefined);
}

export async function listEnvironments(
  deps: Deps,
  teamId: string,
  query: { sort: EnvironmentSort; limit: number; cursor?: string },
): Promise<Schemas['ListEnvironmentsResponse']> {
  const column = ENVIRONMENT_SORT_COLUMN[query.sort];
  const { items, page_info } = await keysetPage({
    limit: query.limit,
    cursor: query.cursor,
    sortKey: column,
    order: ENVIRONMENT_SORT_ORDER[query.sort],
    fetch: (after, limit) => listEnvironmentRows(deps.db, teamId, { sort: query.sort, limit, after }),
    keyOf: (row) => ({ value: row[column], id: row.id }),
    toItems: async (rows) => {
      const newest = await newestRunByEnvironment(
        deps.db,
        teamId,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toCloudEnvironment(deps, row, newest.get(row.id)));
    },
  });
  return { environments: items, page_info };
}

const notFound = (id: string) => resourceNotFound(`Environment ${id} not found.`);

export async function getEnvironment(deps: Deps, teamId: string, id: string): Promise<CloudEnvironment> {
  const row = await findEnvironment(deps.db, teamId, id);
  if (!row) throw notFound(id);
  return answer(deps, row);
}

/** PATCH: given fields replace (setup_commands, env_vars and plain_env_vars as a whole); omitted fields stay; a null description clears it. */
export async function updateEnvironment(
  deps: WriteDeps,
  principal: Principal,
  id: string,
  input: UpdateEnvironmentRequest,
  audit: AuditTrail,
): Promise<CloudEnvironment> {
  refuseUnsupportedOzFields(input);
  checkDockerImage(deps, input.docker_image);
  const changes: Parameters<typeof updateEnvironmentRow>[3] = { updated_at: toTimestamp(deps.clock.now()), last_editor: JSON.stringify(actorOf(principal)) };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.setup_commands !== undefined) changes.setup_commands = JSON.stringify(input.setup_commands);
  if (input.env_vars !== undefined) changes.env_vars = encryptVars(deps, input.env_vars);
  if (input.plain_env_vars !== undefined) changes.plain_env_vars = plainVarsColumn(input.plain_env_vars);
  const repositoriesChange =
    input.github_repos !== undefined || input.repos !== undefined || input.git_token_secret_name !== undefined || input.auto_pr !== undefined;
  if (repositoriesChange || input.env_vars !== undefined || input.plain_env_vars !== undefined) {
    const current = await findEnvironment(deps.db, principal.teamId, id);
    if (!current) throw notFound(id);
    refuseSharedNames(input.env_vars ?? decryptVars(deps, current), input.plain_env_vars ?? parsePlainVars(current));
    if (repositoriesChange) changes.repositories = await repositoriesColumn(deps, principal.teamId, current.repositories, input);
  }
  if (input.docker_image !== undefined) changes.docker_image = input.docker_image;
  if (input.registry_secret_name !== undefined) changes.registry_secret_name = input.registry_secret_name;
  let row: EnvironmentRow | undefined;
  try {
    row = await deps.db.transaction().execute(async (tx) => {
      const updated = await updateEnvironmentRow(tx, principal.teamId, id, changes);
      if (updated) await audit.record(tx, updated.id);
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? '');
    throw err;
  }
  if (!row) throw notFound(id);
  return answer(deps, row);
}

export async function deleteEnvironment(deps: Deps, teamId: string, id: string, audit: AuditTrail): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    if (!(await deleteEnvironmentRow(tx, teamId, id))) throw notFound(id);
    await audit.record(tx, id);
  });
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
  return new Map(rows.map((row) => [row.id, toEnvironmentConfig(row)]));
}

/** The environment a run selected, decrypted (environment-setup.ts), or undefined if it was deleted. */
export async function loadEnvironmentForRun(deps: Pick<Deps, 'db' | 'secrets'>, teamId: string, id: string): Promise<EnvironmentForRun | undefined> {
  const row = await findEnvironment(deps.db, teamId, id);
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    setupCommands: JSON.parse(row.setup_commands) as string[],
    envVars: decryptVars(deps, row),
    plainEnvVars: parsePlainVars(row),
    repositories: parseRepositories(row.repositories),
    dockerImage: row.docker_image ?? undefined,
    registrySecretName: row.registry_secret_name ?? undefined,
  };
}
