/**
 * What the server remembers about a run's checkout between its executions, beside the server-owned git
 * directory (`DATA_DIR/repositories/<run id>/<key>.json`, never in the workspace), and where the git
 * token comes from.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../../context';
import { DEFAULT_GIT_TOKEN_SECRET, type EnvironmentRepositories } from '../../environments/repositories';
import { findTeamSecret } from '../../secrets/repository';
import type { GitStep } from './git';

export interface CheckoutState {
  /** The checkout's path in the workspace. */
  path: string;
  /** The commit checked out first: the run's diff is against it. */
  baseCommit: string;
  /** The branch a pull request targets: the ref asked for when it is a branch, else the default branch. */
  baseBranch: string;
  /** The run's branch (`agent/<short run id>`). */
  branch: string;
  /** The last commit pushed to `branch`. */
  pushedCommit?: string;
  /** The URL the PULL_REQUEST artifact carries (the pull request's, or the compare page). */
  publishedUrl?: string;
  /** The pull request, once opened. */
  pullRequestUrl?: string;
}

/** The run's branch: a follow-up of the same run pushes to it again. */
export const runBranch = (runId: string): string => `agent/${runId.slice(0, 8)}`;

/** A file-name-safe key per checkout path. */
export const repositoryKey = (checkoutPath: string): string => createHash('sha256').update(checkoutPath).digest('hex').slice(0, 16);

/**
 * What stands at `relative` under the workspace, looked at component by component without following a
 * link (the agent may have left one anywhere): `missing` (the first missing component onward), `directory`
 * (every component a real directory), or `other` (a link, a file, …: the server must not write through it).
 */
export async function workspaceEntry(workDir: string, relative: string): Promise<'missing' | 'directory' | 'other'> {
  let current = workDir;
  for (const part of relative.split('/')) {
    current = path.join(current, part);
    const stat = await fs.lstat(current).catch(() => undefined);
    if (!stat) return 'missing';
    if (!stat.isDirectory()) return 'other';
  }
  return 'directory';
}

const stateFile = (git: GitStep, key: string) => `${git.hostGitDir(key)}.json`;

export async function readState(git: GitStep, key: string): Promise<CheckoutState | undefined> {
  try {
    return JSON.parse(await fs.readFile(stateFile(git, key), 'utf8')) as CheckoutState;
  } catch {
    return undefined;
  }
}

export async function writeState(git: GitStep, key: string, state: CheckoutState): Promise<void> {
  await fs.writeFile(stateFile(git, key), JSON.stringify(state), { mode: 0o600 });
}

/**
 * The environment's token: the team secret it names, else the team's `GIT_TOKEN` secret if any, else none
 * (public repositories). `missing` names a secret the environment names that is gone.
 */
export async function gitTokenFor(
  ctx: Pick<ServerContext, 'db' | 'secrets'>,
  teamId: string,
  repositories: EnvironmentRepositories | undefined,
): Promise<{ value: string | undefined; missing?: string }> {
  const named = repositories?.git_token_secret_name;
  const row = await findTeamSecret(ctx.db, teamId, named ?? DEFAULT_GIT_TOKEN_SECRET);
  if (!row) return named ? { value: undefined, missing: named } : { value: undefined };
  return { value: ctx.secrets.decrypt(row.value) };
}
