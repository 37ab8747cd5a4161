/**
 * Prepares a run's workspace from its cloud environment (`config.environment_id`): runs the environment's
 * setup commands one by one with `/bin/sh -c` in the run's sandbox (docs/sandbox.md), with only the
 * sandbox's allow-listed environment plus the environment's variables, and returns its plain variables for
 * the runner (`RunContext.env`).
 *
 * `env_vars` are write-only secrets and reach the setup commands only (docs/decisions.md §Write-only
 * environment variables and the setup log): the agent's processes get none of them, and every process a
 * setup command left is killed before the agent starts. `plain_env_vars` are readable and go to both. What a command prints goes to the run's setup log
 * (runs/setup-log.ts, admins only) with the secret values replaced by `***` — never to a status message.
 *
 * A command that exits non-zero, cannot start or runs past its time limit — or an environment deleted
 * since the run was created — throws EnvironmentSetupError whose `statusMessage` is
 * `{message, error_code: "environment_setup_failed", retryable: false}` (a sandbox limit names itself in
 * `error_code` instead); the message names the command's position and how it ended, nothing of its output.
 * Cancel (`signal`) stops the running command and throws an AbortError.
 */
import type { ServerContext } from '../context';
import { toTimestamp } from '../clock';
import { loadEnvironmentForRun, type EnvironmentForRun } from '../environments/service';
import type { RunRow } from '../runs/repository';
import { appendSetupLogEntry, type SetupLogRecord } from '../runs/setup-log';
import { RunFailureError, type ResolvedAgentConfig } from '../runs/contract';
import type { RunSandbox, SandboxExit } from './sandbox';

export const DEFAULT_SETUP_COMMAND_TIMEOUT_MS = 10 * 60_000;
/** Output kept per command in the setup log (the tail: where a failure says why). */
export const SETUP_LOG_OUTPUT_BYTES = 64 * 1024;
const SCRUBBED = '***';

export class EnvironmentSetupError extends RunFailureError {
  override readonly name = 'EnvironmentSetupError';
  constructor(message: string, errorCode = 'environment_setup_failed') {
    super(message, errorCode);
  }
}

/** One finished setup command, for the setup log. */
export type SetupCommandRecord = Omit<SetupLogRecord, 'run_id' | 'team_id'>;

export interface PrepareEnvironmentOptions {
  /** Time limit of each setup command. */
  commandTimeoutMs?: number;
  /** Runs after the environment is loaded, before its setup commands (the repositories' checkout). */
  beforeSetup?: (environment: EnvironmentForRun) => Promise<void>;
  /** Where each finished command's (scrubbed) output goes: the run's setup log. */
  recordCommand?: (record: SetupCommandRecord) => Promise<void>;
}

/** Runs the setup commands. Returns the variables the agent's processes get: the plain ones only. */
export async function prepareEnvironment(
  ctx: Pick<ServerContext, 'db' | 'secrets' | 'log' | 'clock'>,
  run: { teamId: string; environmentId: string },
  sandbox: RunSandbox,
  signal: AbortSignal,
  options: PrepareEnvironmentOptions = {},
): Promise<{ env: Record<string, string> }> {
  const environment = await loadEnvironmentForRun(ctx, run.teamId, run.environmentId);
  if (!environment) {
    throw new EnvironmentSetupError(`Environment ${run.environmentId} no longer exists (it was deleted after the run was created).`);
  }
  await options.beforeSetup?.(environment);
  const secrets = environment.envVars;
  const setupEnv = { ...environment.plainEnvVars, ...secrets };
  const scrub = scrubber(Object.values(secrets));
  const total = environment.setupCommands.length;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_SETUP_COMMAND_TIMEOUT_MS;
  try {
    for (const [index, command] of environment.setupCommands.entries()) {
      if (signal.aborted) throw abortError();
      const startedAt = ctx.clock.now();
      const { exit, output } = await runSetupCommand(sandbox, command, setupEnv, signal, timeoutMs, scrub.margin);
      const result = describeExit(exit, timeoutMs);
      // Why it could not start is the operator's text (paths of the host): the admins' log has it, members do not.
      const loggedResult = exit.startError ? `${result}: ${exit.startError}` : result;
      ctx.log.debug({ environment_id: environment.id, command: index + 1, code: exit.code }, 'environment setup command finished');
      const scrubbed = Buffer.from(scrub.text(output.text));
      const text = scrubbed.subarray(Math.max(0, scrubbed.length - SETUP_LOG_OUTPUT_BYTES)).toString('utf8');
      await options.recordCommand?.({
        environment_id: environment.id,
        command_position: index + 1,
        command_count: total,
        command,
        started_at: toTimestamp(startedAt),
        finished_at: toTimestamp(ctx.clock.now()),
        exit_code: exit.startError || exit.violation ? null : exit.code,
        result: loggedResult,
        output: text,
        output_truncated: output.truncated ? 1 : 0,
      });
      if (exit.code === 0 && !exit.violation) continue;
      const code = exit.violation && exit.violation.error_code !== 'run_timeout' ? exit.violation.error_code : undefined;
      throw new EnvironmentSetupError(
        `Environment "${environment.name}" setup command ${index + 1} of ${total} ${result}. An admin can read its output in the run's setup log.`,
        code,
      );
    }
  } finally {
    // Whatever a setup command left behind, with the secrets in its environment, is gone before the agent starts.
    await sandbox.stopProcesses();
  }
  return { env: environment.plainEnvVars };
}

/**
 * The worker's environment step (engine/run-environment.ts `PrepareRunEnvironment`): the run's resolved
 * `environment_id`, if any, prepared as above, its commands recorded in the run's setup log.
 */
export async function prepareEnvironmentForRun(
  ctx: Pick<ServerContext, 'db' | 'secrets' | 'log' | 'clock'>,
  run: Pick<RunRow, 'id' | 'team_id' | 'resolved_config' | 'config'>,
  sandbox: RunSandbox,
  signal: AbortSignal,
  options: PrepareEnvironmentOptions = {},
): Promise<{ env: Record<string, string> }> {
  const config = JSON.parse(run.resolved_config ?? run.config ?? '{}') as ResolvedAgentConfig | null;
  const environmentId = config?.environment_id;
  if (!environmentId) return { env: {} };
  const recordCommand = (record: SetupCommandRecord) => appendSetupLogEntry(ctx.db, { ...record, run_id: run.id, team_id: run.team_id });
  return prepareEnvironment(ctx, { teamId: run.team_id, environmentId }, sandbox, signal, { recordCommand, ...options });
}

/** How a setup command ended, in words (the status message and the setup log say it alike). */
function describeExit(exit: SandboxExit, timeoutMs: number): string {
  if (exit.startError) return 'could not start';
  if (exit.violation?.error_code === 'run_timeout') return `did not finish within ${Math.round(timeoutMs / 1000)} s`;
  if (exit.violation) return `was ${exit.violation.message}`;
  return `exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}`;
}

function abortError(): Error {
  const err = new Error('environment setup was aborted');
  err.name = 'AbortError';
  return err;
}

/**
 * Replaces every secret value of 4+ characters, and its base64 form, with `***` — defence in depth for the
 * setup log, which only admins read anyway. `margin`: how many bytes before a cut could hold part of one.
 */
function scrubber(values: string[]): { text: (text: string) => string; margin: number } {
  const forms = values
    .filter((v) => v.length >= 4)
    .flatMap((v) => [v, Buffer.from(v).toString('base64'), Buffer.from(v).toString('base64').replace(/=+$/, '')])
    .sort((a, b) => b.length - a.length);
  return {
    text: (text) => forms.reduce((acc, secret) => acc.split(secret).join(SCRUBBED), text),
    margin: forms.reduce((max, form) => Math.max(max, Buffer.byteLength(form)), 0),
  };
}

async function runSetupCommand(
  sandbox: RunSandbox,
  command: string,
  env: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
  scrubMargin: number,
): Promise<{ exit: SandboxExit; output: { text: string; truncated: boolean } }> {
  const proc = await sandbox.spawn({ argv: ['/bin/sh', '-c', command], env, stdin: 'ignore', wallTimeMs: timeoutMs, limitOutput: true });
  // The tail plus room for a secret cut at its start, so scrubbing still sees it whole before the final cut.
  const keep = SETUP_LOG_OUTPUT_BYTES + scrubMargin;
  let output = Buffer.alloc(0);
  let truncated = false;
  const collect = (chunk: Buffer) => {
    output = Buffer.concat([output, chunk]);
    if (output.length > keep) {
      output = output.subarray(output.length - keep);
      truncated = true;
    }
  };
  proc.stdout.on('data', collect);
  proc.stderr.on('data', collect);
  const onAbort = () => proc.terminate();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await proc.exited;
    if (signal.aborted) throw abortError();
    return { exit, output: { text: output.toString('utf8'), truncated: truncated || output.length > SETUP_LOG_OUTPUT_BYTES } };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
