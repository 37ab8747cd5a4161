/**
 * What the model runner adds to a run's resolved AmbientAgentConfig (docs/decisions.md §Shapes):
 * - `name` defaults to the skill's name when the run starts from a skill (`skill_spec`), for every runner;
 * - `skill_spec` is resolved up front: a spec that does not resolve in the skills root answers the create
 *   call with 400 (the run would only fail at start otherwise; if the file disappears in between, the run
 *   FAILS at start with `skill_not_found`);
 * - for model runs: `model_id` defaults to DEFAULT_MODEL_ID, and the limits `max_turns` (1–200, default 20),
 *   `model_call_timeout_seconds` (default 120) and `run_timeout_seconds` (default 1800) are always present.
 *
 * `resolveAgentConfig` (runs/config.ts) calls `resolveRunnerConfig`; errors are InvalidConfigErrors.
 */
import type { RunnerName } from '../../settings';
import { parseSkillSpec, resolveSkillSpec, SkillError, skillNameFromSpec } from '../../skills/resolve';
import type { ResolvedAgentConfig } from '../../runs/contract';

export interface LimitBounds {
  min: number;
  max?: number;
  default: number;
}

/** As the contract (AmbientAgentConfig): the timeouts have no upper bound there. */
export const MODEL_LIMITS: Record<'max_turns' | 'model_call_timeout_seconds' | 'run_timeout_seconds', LimitBounds> = {
  max_turns: { min: 1, max: 200, default: 20 },
  model_call_timeout_seconds: { min: 1, default: 120 },
  run_timeout_seconds: { min: 1, default: 1_800 },
};

/** Longest timer Node can arm (about 24.8 days): longer timeouts are treated as this. */
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export type ModelLimitName = keyof typeof MODEL_LIMITS;

export interface ModelLimits {
  max_turns: number;
  model_call_timeout_seconds: number;
  run_timeout_seconds: number;
}

/** The limits a model run works with: the config's values, else the defaults (values assumed validated). */
export function modelLimits(config: ResolvedAgentConfig): ModelLimits {
  const pick = (name: ModelLimitName) => {
    const value = config[name];
    const { min, max = Number.MAX_SAFE_INTEGER } = MODEL_LIMITS[name];
    return typeof value === 'number' && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : MODEL_LIMITS[name].default;
  };
  return {
    max_turns: pick('max_turns'),
    model_call_timeout_seconds: pick('model_call_timeout_seconds'),
    run_timeout_seconds: pick('run_timeout_seconds'),
  };
}

/** Seconds → milliseconds for a timer, capped at what setTimeout can wait. */
export function timerMs(seconds: number): number {
  return Math.min(seconds, MAX_TIMER_SECONDS) * 1000;
}

/** Validation errors of the limit fields, as `{path, message}` (paths relative to the request body). */
export function validateModelLimits(config: ResolvedAgentConfig, pathPrefix = '$.config'): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  for (const name of Object.keys(MODEL_LIMITS) as ModelLimitName[]) {
    const value = config[name];
    if (value === undefined || value === null) continue;
    const { min, max } = MODEL_LIMITS[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
      const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
      errors.push({ path: `${pathPrefix}.${name}`, message: `must be an integer ${range}` });
    }
  }
  return errors;
}

/** A configuration that cannot run: each caller answers it its own way (400 on run create, 422 on saved automations). */
export class InvalidConfigError extends Error {
  constructor(
    message: string,
    readonly errors: Array<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'InvalidConfigError';
  }
}

export interface RunnerConfigOptions {
  runner: RunnerName;
  defaultModelId: string | undefined;
  skillsDir: string | undefined;
  /**
   * false for runs no client is waiting on (webhook/automation starts): never throw for the skill or the
   * model — the run then FAILS at start with a clear status message instead. Default true.
   */
  strict?: boolean;
}

/**
 * Completes a resolved config for the runner that will execute it, throwing InvalidConfigError for
 * limits out of range, a `skill_spec` that is malformed or does not resolve in the skills root, and a
 * model run with neither `model_id` nor DEFAULT_MODEL_ID.
 * `name` defaults to the skill's name (SKILL.md front matter `name`, else the skill-name / directory).
 */
export async function resolveRunnerConfig(config: ResolvedAgentConfig, options: RunnerConfigOptions): Promise<ResolvedAgentConfig> {
  const errors = options.strict === false ? [] : validateModelLimits(config);
  if (errors.length > 0) {
    throw new InvalidConfigError(`The configuration is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}.`, errors);
  }
  const resolved: ResolvedAgentConfig = { ...config };
  if (config.skill_spec) {
    try {
      const skill = await resolveSkillSpec(options.skillsDir, config.skill_spec);
      if (!resolved.name) resolved.name = skill.name;
    } catch (err) {
      if (!(err instanceof SkillError)) throw err;
      if (options.strict === false) {
        if (!resolved.name) resolved.name = syntacticSkillName(config.skill_spec);
        return finishModelDefaults(resolved, options);
      }
      throw new InvalidConfigError(err.message, [{ path: '$.config.skill_spec', message: err.message }]);
    }
  }
  if (options.runner === 'model' && options.strict !== false && !resolved.model_id && !options.defaultModelId) {
    const message = 'config.model_id is required: this server has no DEFAULT_MODEL_ID.';
    throw new InvalidConfigError(message, [{ path: '$.config.model_id', message }]);
  }
  return finishModelDefaults(resolved, options);
}

function finishModelDefaults(resolved: ResolvedAgentConfig, options: RunnerConfigOptions): ResolvedAgentConfig {
  if (options.runner === 'model') {
    if (!resolved.model_id && options.defaultModelId) resolved.model_id = options.defaultModelId;
    Object.assign(resolved, modelLimits(resolved));
  }
  return resolved;
}

function syntacticSkillName(spec: string): string | undefined {
  try {
    return skillNameFromSpec(parseSkillSpec(spec));
  } catch {
    return undefined;
  }
}
