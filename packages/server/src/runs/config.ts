/**
 * Resolution of a run's AmbientAgentConfig: the configuration as requested plus the defaults the run will
 * actually use. Kept in ONE function so every way of starting a run (REST, factory dispatch, automations)
 * resolves the same way.
 */
import type { ServerContext } from '../context';
import type { ResolvedAgentConfig } from './contract';
import { InvalidConfigError, modelLimits, resolveRunnerConfig } from '../engine/runners/model-config';
import { validateRunBudget } from '../budgets/run-budget';
import { harnessRefusal } from '../engine/harnesses/catalog';
import { teamHasEnvironment } from './repository';
import { teamScope } from '../db/scoped';

/** AmbientAgentConfig as a client sends it: the same fields as the resolved one, none filled in yet (unknown fields are dropped). */
export type AgentConfigInput = ResolvedAgentConfig;

const KNOWN_FIELDS = [
  'name',
  'model_id',
  'base_prompt',
  'environment_id',
  'skill_spec',
  'mcp_servers',
  'max_turns',
  'model_call_timeout_seconds',
  'run_timeout_seconds',
  'max_tokens',
  'max_cost',
  'harness_auth_secrets',
  'harness',
] as const;

/** The requested configuration restricted to the fields this service knows (what is stored as `config`). */
export function knownConfigFields(config: Record<string, unknown> | undefined): AgentConfigInput | undefined {
  if (!config) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of KNOWN_FIELDS) if (config[field] !== undefined) out[field] = config[field];
  return out as AgentConfigInput;
}

/**
 * An MCP server by `warp_id` (the Oz API's Warp shared servers and integrations) names nothing on a
 * self-hosted service; a run without it would do other work, so it is refused by name (contract:
 * MCPServerConfig). Checked where a configuration is given (strict); a stored one was checked when saved.
 */
function refuseWarpMcpServers(requested: AgentConfigInput | undefined): void {
  for (const [name, server] of Object.entries(requested?.mcp_servers ?? {})) {
    if ((server as { warp_id?: unknown }).warp_id === undefined) continue;
    const path = `$.config.mcp_servers.${name}.warp_id`;
    throw new InvalidConfigError(
      `config.mcp_servers.${name}.warp_id is not supported: this self-hosted service has no Warp shared MCP servers or integrations to look the id up in; give the server by command or url instead.`,
      [{ path, message: 'not supported' }],
    );
  }
}

/** MCP servers one run may name (contract: AmbientAgentConfig.mcp_servers maxProperties). */
export const MCP_SERVERS_MAX = 20;

/**
 * The service's bounds on a configuration that the contract's schema does not hold for every caller: the
 * number of MCP servers (definition files never pass the REST validator) and `run_timeout_seconds` up to
 * RUN_TIMEOUT_MAX_SECONDS (a setting, so no fixed `maximum` in the contract).
 */
function refuseBeyondServiceBounds(requested: AgentConfigInput | undefined, runTimeoutMaxSeconds: number): void {
  const servers = Object.keys(requested?.mcp_servers ?? {}).length;
  if (servers > MCP_SERVERS_MAX) {
    throw new InvalidConfigError(`config.mcp_servers names ${servers} MCP servers; a run may have at most ${MCP_SERVERS_MAX}.`, [
      { path: '$.config.mcp_servers', message: `must NOT have more than ${MCP_SERVERS_MAX} properties` },
    ]);
  }
  const timeout = requested?.run_timeout_seconds;
  if (typeof timeout === 'number' && timeout > runTimeoutMaxSeconds) {
    throw new InvalidConfigError(`config.run_timeout_seconds is ${timeout}; this server allows at most ${runTimeoutMaxSeconds} (RUN_TIMEOUT_MAX_SECONDS).`, [
      { path: '$.config.run_timeout_seconds', message: `must be at most ${runTimeoutMaxSeconds}` },
    ]);
  }
}

/**
 * `config.harness.type` other than `oz`: a harness this server offers and has installed, or one the run's
 * environment image may provide (engine/harnesses/catalog.ts).
 */
async function refuseUnavailableHarness(ctx: Pick<ServerContext, 'db' | 'settings'>, teamId: string, requested: AgentConfigInput | undefined): Promise<void> {
  const type = requested?.harness?.type;
  if (type === undefined || type === 'oz') return;
  const environmentId = requested?.environment_id;
  const environment = environmentId
    ? await teamScope(ctx.db, teamId).selectFrom('environments').select('docker_image').where('id', '=', environmentId).executeTakeFirst()
    : undefined;
  const refusal = harnessRefusal(ctx.settings.harnessesDir, type, Boolean(environment?.docker_image));
  if (refusal) throw new InvalidConfigError(refusal, [{ path: '$.config.harness.type', message: `harness ${type} is not available` }]);
}

export interface ResolveOptions {
  /**
   * false for runs no client is waiting on (webhook starts): skill and model problems do not throw, the
   * run fails at start with a clear status message instead. Default true.
   */
  strict?: boolean;
}

/**
 * Fills in defaults and checks what the run will need, throwing InvalidConfigError (callers choose the
 * status: 400 on run create, 422 for saved automations and definition files):
 * - `environment_id` must name an environment of the team;
 * - the runner's part (engine/runners/model-config.ts): `name` from the skill when the run starts from a
 *   skill (the seed), the skill resolved in SKILLS_DIR, the model runner's model;
 * - `model_id` defaults to DEFAULT_MODEL_ID, else (runners without a model) the runner's name;
 * - the limits are always stated (the contract gives them defaults; only the model runner enforces them);
 * - at most MCP_SERVERS_MAX MCP servers and `run_timeout_seconds` up to RUN_TIMEOUT_MAX_SECONDS (refused
 *   when strict; a non-strict start runs with the maximum instead).
 * - the run's budget (`max_tokens`, `max_cost`: budgets/run-budget.ts), `max_cost` only with a priced model.
 */
export async function resolveAgentConfig(
  ctx: Pick<ServerContext, 'db' | 'settings'>,
  teamId: string,
  requested: AgentConfigInput | undefined,
  options: ResolveOptions = {},
): Promise<ResolvedAgentConfig> {
  const { settings } = ctx;
  if (options.strict !== false) {
    refuseWarpMcpServers(requested);
    refuseBeyondServiceBounds(requested, settings.runTimeoutMaxSeconds);
  }
  if (requested?.environment_id !== undefined && !(await teamHasEnvironment(ctx.db, teamId, requested.environment_id))) {
    throw new InvalidConfigError(`config.environment_id names no environment of this team.`, [
      { path: '$.config.environment_id', message: `unknown environment ${requested.environment_id}` },
    ]);
  }
  if (options.strict !== false) await refuseUnavailableHarness(ctx, teamId, requested);
  const config = await resolveRunnerConfig(
    { ...requested },
    { runner: settings.runner, defaultModelId: settings.defaultModelId, skillsDir: settings.skillsDir, strict: options.strict ?? true },
  );
  if (settings.runner !== 'model') config.model_id ??= settings.defaultModelId ?? settings.runner;
  const budgetErrors = options.strict === false ? [] : validateRunBudget(config, settings.modelPrices);
  if (budgetErrors.length > 0) {
    throw new InvalidConfigError(`The configuration is invalid: ${budgetErrors.map((e) => `${e.path}: ${e.message}`).join('; ')}.`, budgetErrors);
  }
  const limits = modelLimits(config);
  // A configuration saved before RUN_TIMEOUT_MAX_SECONDS was lowered (a webhook start, not strict) runs with the maximum.
  limits.run_timeout_seconds = Math.min(limits.run_timeout_seconds, settings.runTimeoutMaxSeconds);
  return Object.assign(config, limits);
}
