/**
 * Where one invocation of the CLI reads its settings and writes its output: the process's own streams,
 * environment and directory in the bin (bin/agent-runs.mjs), captured ones when a test calls `main` in
 * its own process, so that most tests need no child process (packages/cli/test/support/cli.ts).
 */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Where `artifacts download` saves and what a relative `factory apply <dir>` is relative to. */
  cwd: string;
}

/** One run of `main`: its io and the exit code a command set (0 unless one did). */
export interface Invocation {
  readonly io: CliIo;
  exitCode: number;
}

/** The io of the process itself, for the bin. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
