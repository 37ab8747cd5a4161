import { AgentRunsError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@agent-runs/sdk';
import type { CliIo, Invocation } from './io';

/**
 * Exit codes. Usage errors (unknown option, missing argument, missing API key) keep commander's own
 * code, 1, and its `error: …` message format.
 */
export const EXIT_API_ERROR = 1;
export const EXIT_CONNECTION_ERROR = 2;
/** `run --wait`: the run ended FAILED, ERROR or CANCELLED (the API itself answered fine). */
export const EXIT_RUN_UNSUCCESSFUL = 3;
/** `run --wait`, `runs answer --wait`: the run is BLOCKED on a question (answer it with `runs answer`). */
export const EXIT_RUN_BLOCKED = 4;
/** Interrupted (Ctrl-C), as shells report SIGINT. */
export const EXIT_INTERRUPTED = 130;

/** A problem with how the command was called, found after commander parsed it. Reported by commander. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Runs `task` with a signal that Ctrl-C aborts, and answers its result; after Ctrl-C, undefined with exit
 * code 130 and no message (stopping a watch or a wait is what the user asked for, not an error).
 */
export async function interruptible<T>(invocation: Invocation, task: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  try {
    return await task(interrupt.signal);
  } catch (err) {
    if (!interrupt.signal.aborted) throw err;
    invocation.exitCode = EXIT_INTERRUPTED;
    return undefined;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * Prints `err` to stderr and answers the exit code. An API error prints
 * `error: <status> <code>: <detail>`, then the trace id and any per-field or per-file problems.
 */
export function reportError(err: unknown, baseURL: string, io: CliIo): number {
  const write = (line: string) => io.stderr.write(`${line}\n`);
  if (err instanceof APIUserAbortError) {
    write('error: interrupted');
    return EXIT_INTERRUPTED;
  }
  if (err instanceof APIConnectionTimeoutError) {
    write(`error: timed out waiting for the API at ${baseURL}`);
    return EXIT_CONNECTION_ERROR;
  }
  if (err instanceof APIConnectionError) {
    const reason = rootCause(err);
    write(`error: cannot reach the API at ${baseURL}${reason ? ` (${reason})` : ''}`);
    write('hint: is the server running? Set --base-url or AGENT_RUNS_BASE_URL to its REST root (…/api/v1).');
    return EXIT_CONNECTION_ERROR;
  }
  if (err instanceof APIError && err.status !== undefined) {
    const detail = err.detail ?? (typeof err.body === 'string' ? err.body.slice(0, 500) : err.title);
    write(`error: ${[String(err.status), err.code].filter(Boolean).join(' ')}: ${detail ?? '(no detail)'}`);
    const problem = typeof err.body === 'object' ? err.body : undefined;
    for (const item of err.errors ?? []) write(`  ${item.path}: ${item.message}`);
    for (const item of problem?.file_errors ?? []) write(`  ${item.file}: ${item.message}`);
    if (err.requestId) write(`trace id: ${err.requestId}`);
    return EXIT_API_ERROR;
  }
  if (err instanceof AgentRunsError) {
    write(`error: ${err.message}`);
    return EXIT_API_ERROR;
  }
  write(`error: ${err instanceof Error ? err.message : String(err)}`);
  if (io.env['AGENT_RUNS_DEBUG'] && err instanceof Error && err.stack) write(err.stack);
  return EXIT_API_ERROR;
}

/** `fetch failed` hides the useful part (`ECONNREFUSED 127.0.0.1:8080`) in its cause chain. */
function rootCause(err: Error): string | undefined {
  let current: unknown = err.cause;
  let message: string | undefined;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    message = typeof code === 'string' && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    current = current.cause;
  }
  return message;
}
