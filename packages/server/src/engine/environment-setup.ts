/**
 * Prepares a run's working directory from its cloud environment (`config.environment_id`): runs the
 * environment's setup commands one by one with `/bin/sh -c` in the working directory, with a minimal
 * inherited environment (PATH, HOME, locale… — never the server's own secrets) plus the environment's
 * variables, and returns those variables for the runner (`RunContext.env`).
 *
 * A command that exits non-zero, cannot start or runs past its time limit — or an environment deleted
 * since the run was created — throws EnvironmentSetupError whose `statusMessage` is
 * `{message, error_code: "environment_setup_failed", retryable: false}`; the message names the command
 * and ends with the tail of its output, with the environment's variable values redacted. Cancel
 * (`signal`) kills the running command's process group and throws an AbortError.
 */
import { spawn } from 'node:child_process';
import type { ServerContext } from '../context';
import { loadEnvironmentForRun } from '../api/environments/service';
import type { RunRow } from './run-store';
import type { ResolvedAgentConfig, RunStatusMessage } from './runner';

export const DEFAULT_SETUP_COMMAND_TIMEOUT_MS = 10 * 60_000;
const OUTPUT_TAIL_CHARS = 1_500;

/** Variables a setup command (and a stdio MCP server) inherits from the server process. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TMPDIR', 'TZ'];

export function inheritedEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export class EnvironmentSetupError extends Error {
  readonly statusMessage: RunStatusMessage;
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentSetupError';
    this.statusMessage = { message, error_code: 'environment_setup_failed', retryable: false };
  }
}

export interface PrepareEnvironmentOptions {
  /** Time limit of each setup command. */
  commandTimeoutMs?: number;
}

export async function prepareEnvironment(
  ctx: Pick<ServerContext, 'db' | 'secrets' | 'log'>,
  run: { teamId: string; environmentId: string },
  workDir: string,
  signal: AbortSignal,
  options: PrepareEnvironmentOptions = {},
): Promise<{ env: Record<string, string> }> {
  const environment = await loadEnvironmentForRun(ctx, run.teamId, run.environmentId);
  if (!environment) {
    throw new EnvironmentSetupError(`Environment ${run.environmentId} no longer exists (it was deleted after the run was created).`);
  }
  const env = environment.envVars;
  const redact = redactor(Object.values(env));
  const total = environment.setupCommands.length;
  for (const [index, command] of environment.setupCommands.entries()) {
    if (signal.aborted) throw abortError();
    const result = await runSetupCommand(command, workDir, { ...inheritedEnv(), ...env }, signal, options.commandTimeoutMs ?? DEFAULT_SETUP_COMMAND_TIMEOUT_MS);
    ctx.log.debug({ environment_id: environment.id, command: index + 1, code: result.code }, 'environment setup command finished');
    if (result.kind === 'ok') continue;
    const which = `Environment "${environment.name}" setup command ${index + 1} of ${total} (${redact(command)})`;
    const output = redact(result.output).trim();
    const why =
      result.kind === 'exit'
        ? `exited with ${result.signal ? `signal ${result.signal}` : `code ${result.code}`}`
        : result.kind === 'timeout'
          ? `did not finish within ${Math.round((options.commandTimeoutMs ?? DEFAULT_SETUP_COMMAND_TIMEOUT_MS) / 1000)} s`
          : `could not start: ${result.error}`;
    throw new EnvironmentSetupError(`${which} ${why}${output ? `: ${output}` : ''}`);
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
  workDir: string,
  signal: AbortSignal,
): Promise<{ env: Record<string, string> }> {
  const config = JSON.parse(run.resolved_config ?? run.config ?? '{}') as ResolvedAgentConfig | null;
  const environmentId = config?.environment_id;
  if (!environmentId) return { env: {} };
  return prepareEnvironment(ctx, { teamId: run.team_id, environmentId }, workDir, signal);
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

type CommandResult =
  | { kind: 'ok'; code: 0 }
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; output: string }
  | { kind: 'timeout'; code: null; output: string }
  | { kind: 'spawn_error'; code: null; error: string; output: string };

function runSetupCommand(command: string, cwd: string, env: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    let output = '';
    let timedOut = false;
    let aborted = false;
    // Its own process group, so a cancel or timeout stops everything the command started.
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      done();
      if (aborted) return reject(abortError());
      resolve({ kind: 'spawn_error', code: null, error: err.message, output });
    });
    let settled = false;
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      done();
      if (aborted) return reject(abortError());
      if (timedOut) return resolve({ kind: 'timeout', code: null, output });
      if (code === 0) return resolve({ kind: 'ok', code: 0 });
      resolve({ kind: 'exit', code, signal: sig, output });
    };
    // 'close' waits for the output pipes; a background process the command left running may hold them
    // open, so 'exit' plus a short grace for the last output decides.
    child.on('close', finish);
    child.on('exit', (code, sig) => {
      setTimeout(() => finish(code, sig), 200).unref();
    });
  });
}
