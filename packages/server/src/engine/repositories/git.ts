/**
 * The git step (docs/sandbox.md §The git step): every git command the server runs for a run's
 * repositories is a process of its own in the run's sandbox (its own PID namespace, the egress proxy),
 * started with a configuration nothing in the workspace can change:
 *
 * - the git directory is the server's (`DATA_DIR/repositories/<run id>/<key>.git`, bound into this step
 *   only, never into the agent's processes), the work tree the checkout in the workspace (`GIT_DIR`,
 *   `GIT_WORK_TREE`); the agent works in a `.git` of its own that git ignores inside a work tree;
 * - no system, global or XDG configuration, attributes or excludes (`GIT_CONFIG_NOSYSTEM`,
 *   `GIT_CONFIG_GLOBAL=/dev/null`, HOME elsewhere), hooks off (`core.hooksPath=/dev/null`), no fsmonitor,
 *   no ssh, only http(s) (`protocol.allow`), no redirects (the token goes to the URL the server chose);
 * - the token comes on stdin, into the environment of the shell that execs git, and reaches git only
 *   through a credential helper that prints `$GIT_TOKEN` (a shell builtin): never in an argument list —
 *   bubblewrap's included —, a file or a configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerContext } from '../../context';
import { ensurePrivateDir } from '../../private-files';
import type { RunSandbox, SandboxExit } from '../sandbox';

/** Where the run's server-owned git directories appear inside the git step. */
const GIT_ROOT_INSIDE = '/run/agent-runs/repositories';
/** Each git command's time limit (a clone of a large repository through the proxy). */
const GIT_COMMAND_TIMEOUT_MS = 10 * 60_000;
/** Output of a command the server reads back (a diff); past it, the rest is dropped. */
const OUTPUT_CAP_BYTES = 64 * 1024 * 1024;

const CREDENTIAL_HELPER = '!f(){ test "$1" = get && printf "username=x-access-token\\npassword=%s\\n" "$GIT_TOKEN"; }; f';

/** Fixed configuration of every git command (GIT_CONFIG_COUNT: the command line's level, above any file). */
const HARDENED_CONFIG: Array<[string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.sshCommand', '/bin/false'],
  ['core.attributesFile', '/dev/null'],
  ['core.excludesFile', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['protocol.allow', 'never'],
  ['protocol.http.allow', 'always'],
  ['protocol.https.allow', 'always'],
  ['http.followRedirects', 'false'],
  ['credential.helper', ''],
  ['credential.helper', CREDENTIAL_HELPER],
  ['safe.directory', '*'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['gc.auto', '0'],
  ['advice.detachedHead', 'false'],
  ['init.defaultBranch', 'main'],
];

function hardenedEnv(): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    HOME: '/nonexistent',
    XDG_CONFIG_HOME: '/nonexistent',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_ALLOW_PROTOCOL: 'http:https',
    GIT_CEILING_DIRECTORIES: '/',
    GIT_CONFIG_COUNT: String(HARDENED_CONFIG.length),
  };
  HARDENED_CONFIG.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Reads the token from stdin into the environment of the shell that then becomes git. */
const WITH_TOKEN_FROM_STDIN = 'IFS= read -r GIT_TOKEN; export GIT_TOKEN; exec git "$@"';

export interface GitResult {
  ok: boolean;
  stdout: string;
  /** Why it failed, redacted: git's last words, or the limit or egress denial that stopped it. */
  error: string;
}

export interface GitCommand {
  args: string[];
  /** The repository's git directory key (`<key>.git` under the run's root); unset for a command that makes none. */
  repository?: string;
  /** The checkout in the workspace (relative path) git works on. */
  workTree?: string;
  /** Extra variables (commit author). */
  env?: Record<string, string>;
}

/** The git step of one run: its sandbox, its server-owned root, its token. */
export interface GitStep {
  run(command: GitCommand): Promise<GitResult>;
  /** Host path of a repository's server-owned git directory. */
  hostGitDir(key: string): string;
  /** Its path as git sees it inside the step. */
  gitDirInside(key: string): string;
  /** Replaces the token (and its base64 form, as in a Basic header) in a text. */
  redact(text: string): string;
  /** fetch under the run's egress policy (the forge's REST API). */
  readonly fetch: typeof globalThis.fetch;
}

export const repositoriesRoot = (ctx: Pick<ServerContext, 'settings'>): string => path.join(ctx.settings.dataDir, 'repositories');

/**
 * A git step in the run's own sandbox (its fence, its egress policy), with the run's server-owned git
 * root bound in; the root belongs to the sandbox's host uid, which git runs as.
 */
export function openGitStep(
  ctx: Pick<ServerContext, 'settings'>,
  sandbox: RunSandbox,
  runId: string,
  workDir: string,
  token: string | undefined,
  signal?: AbortSignal,
): GitStep {
  const hostRoot = path.join(repositoriesRoot(ctx), runId);
  ensurePrivateDir(hostRoot);
  const owner = sandbox.workspaceOwner;
  if (owner) {
    // Search only: the host uid reaches its run's root by path and lists no other run's.
    fs.chmodSync(repositoriesRoot(ctx), 0o711);
    fs.chownSync(hostRoot, owner.uid, owner.gid);
  }
  // SANDBOX=none runs on the host, where the bind does not exist: there the host path is the path.
  const isolated = sandbox.workspacePath !== workDir;
  const rootInside = isolated ? GIT_ROOT_INSIDE : hostRoot;
  const secrets = token ? [token, Buffer.from(`x-access-token:${token}`).toString('base64')] : [];
  const redact = (text: string) => secrets.reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);

  return {
    hostGitDir: (key) => path.join(hostRoot, `${key}.git`),
    gitDirInside: (key) => `${rootInside}/${key}.git`,
    redact,
    fetch: sandbox.fetch,
    async run(command) {
      const env: Record<string, string> = { ...hardenedEnv(), ...command.env };
      if (command.repository) env.GIT_DIR = `${rootInside}/${command.repository}.git`;
      if (command.workTree) env.GIT_WORK_TREE = `${sandbox.workspacePath}/${command.workTree}`;
      const proc = await sandbox.spawn({
        argv: ['/bin/sh', '-c', WITH_TOKEN_FROM_STDIN, 'git', ...command.args],
        env,
        stdin: 'pipe',
        wallTimeMs: GIT_COMMAND_TIMEOUT_MS,
        limitOutput: false,
        binds: isolated ? [{ hostPath: hostRoot, sandboxPath: GIT_ROOT_INSIDE }] : [],
        // The host's git, whatever the run's image holds.
        view: 'host',
      });
      proc.stdin?.on('error', () => {}); // a git that exits before reading
      proc.stdin?.end(`${token ?? ''}\n`);
      const stdout = collect(proc.stdout);
      const stderr = collect(proc.stderr);
      // Cancel stops a long clone at once rather than after its time limit.
      const onAbort = () => proc.terminate();
      signal?.addEventListener('abort', onAbort, { once: true });
      const exit = await proc.exited.finally(() => signal?.removeEventListener('abort', onAbort));
      const [out, err] = await Promise.all([stdout, stderr]);
      const ok = exit.code === 0 && !exit.violation;
      return { ok, stdout: out, error: ok ? '' : redact(failureText(exit, err)) };
    },
  };
}

function collect(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size >= OUTPUT_CAP_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** git's `fatal:`/`error:` lines (else its last line), or the sandbox's reason; at most 300 characters. */
function failureText(exit: SandboxExit, stderr: string): string {
  if (exit.violation) return exit.violation.message;
  if (exit.startError) return `git could not start: ${exit.startError}`;
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.filter((l) => /^(fatal|error|remote):/.test(l));
  const text = (fatal.length > 0 ? fatal : lines.slice(-1)).join(' ') || `git exited with code ${exit.code}`;
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
