/**
 * Prepares a run's workspace from its cloud environment (`config.environment_id`): runs the environment's
 * setup commands one by one with `/bin/sh -c` in the run's sandbox (docs/sandbox.md), with only the
 * sandbox's allow-listed environment plus the environment's variables, and returns those variables for
 * the runner (`RunContext.env`).
 *
 * A command that exits non-zero, cannot start or runs past its time limit — or an environment deleted
 * since the run was created — throws EnvironmentSetupError whose `statusMessage` is
 * `{message, error_code: "environment_setup_failed", retryable: false}` (a sandbox limit names itself in
 * `error_code` instead); the message names the command and ends with the tail of its output, with the
 * environment's variable values redacted. Cancel (`signal`) stops the running command and throws an
 * AbortError.
 */
import type { ServerContext } from '../context';
import { loadEnvironmentForRun, type EnvironmentForRun } from '../environments/service';
import type { RunRow } from '../runs/repository';
import type { ResolvedAgentConfig, RunStatusMessage } from './runner';
import type { RunSandbox, SandboxExit } from './sandbox';

export const DEFAULT_SETUP_COMMAND_TIMEOUT_MS = 10 * 60_000;
const OUTPUT_TAIL_CHARS = 1_500;

export class EnvironmentSetupError extends Error {
  readonly statusMessage: RunStatusMessage;
  constructor(message: string, errorCode = 'environment_setup_failed') {
    super(message);
    this.name = 'EnvironmentSetupError';
    this.statusMessage = { message, error_code: errorCode, retryable: false };
  }
}

export interface PrepareEnvironmentOptions {
  /** Time limit of each setup command. */
  commandTimeoutMs?: number;
  /** Runs after the environment is loaded, before its setup commands (the repositories' checkout). */
  beforeSetup?: (environment: EnvironmentForRun) => Promise<void>;
}

export async function prepareEnvironment(
  ctx: Pick<ServerContext, 'db' | 'secrets' | 'log'>,
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
  const env = environment.envVars;
  const redact = redactor(Object.values(env));
  const total = environment.setupCommands.length;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_SETUP_COMMAND_TIMEOUT_MS;
  for (const [index, command] of environment.setupCommands.entries()) {
    if (signal.aborted) throw abortError();
    const result = await runSetupCommand(sandbox, command, env, signal, timeoutMs);
    ctx.log.debug({ environment_id: environment.id, command: index + 1, code: result.exit.code }, 'environment setup command finished');
    const { exit, output } = result;
    if (exit.code === 0 && !exit.violation) continue;
    const which = `Environment "${environment.name}" setup command ${index + 1} of ${total} (${redact(command)})`;
    const tail = redact(output).trim();
    const why = exit.startError
      ? `could not start: ${exit.startError}`
      : exit.violation?.error_code === 'run_timeout'
        ? `did not finish within ${Math.round(timeoutMs / 1000)} s`
        : exit.violation
          ? `was ${exit.violation.message}`
          : `exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}`;
    const code = exit.violation && exit.violation.error_code !== 'run_timeout' ? exit.violation.error_code : undefined;
    throw new EnvironmentSetupError(`${which} ${why}${tail ? `: ${tail}` : ''}`, code);
  }
  return { env };
}

/**
 * The worker's environment step (engine/run-environment.ts `PrepareRunEnvironment`): the run's resolved
 * `environment_id`, if any, prepared as above; no environment → no extra variables.
 */
export async function prepareEnvironmentForRun(
  ctx: Pick<ServerContext, 'db' | 'secrets' | 'log'>,
  run: Pick<RunRow, 'team_id' | 'resolved_config' | 'config'>,
  sandbox: RunSandbox,
  signal: AbortSignal,
  options: PrepareEnvironmentOptions = {},
): Promise<{ env: Record<string, string> }> {
  const config = JSON.parse(run.resolved_config ?? run.config ?? '{}') as ResolvedAgentConfig | null;
  const environmentId = config?.environment_id;
  if (!environmentId) return { env: {} };
  return prepareEnvironment(ctx, { teamId: run.team_id, environmentId }, sandbox, signal, options);
}

function abortError(): Error {
  const err = new Error('environment setup was aborted');
  err.name = 'AbortError';
  return err;
}

/** Replaces every secret value (4+ characters) in a text. */
function redactor(values: string[]): (text: string) => string {
  const secrets = values.filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
}

async function runSetupCommand(
  sandbox: RunSandbox,
  command: string,
  env: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ exit: SandboxExit; output: string }> {
  const proc = await sandbox.spawn({ argv: ['/bin/sh', '-c', command], env, stdin: 'ignore', wallTimeMs: timeoutMs, limitOutput: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  proc.stdout.on('data', collect);
  proc.stderr.on('data', collect);
  const onAbort = () => proc.terminate();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await proc.exited;
    if (signal.aborted) throw abortError();
    return { exit, output };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
