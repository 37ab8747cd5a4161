/**
 * Repositories in: before an environment's setup commands run, each repository of the environment is
 * cloned into a server-owned git directory and checked out into the workspace at its `path`, at its `ref`
 * (else the default branch) — or, when the run's branch already exists on the remote (a follow-up after
 * the workspace was pruned), at that branch, so the run continues its own work. The agent gets an
 * ordinary `.git` of its own: a copy made before any of its processes ran.
 *
 * A repository that cannot be cloned ends the run FAILED `repository_unavailable`, naming it and the
 * reason, token redacted. An execution that finds the server's git directory already there (a follow-up,
 * a resumed run) leaves the checkout as the run left it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../../context';
import type { EnvironmentForRun } from '../../environments/service';
import { repositoryCheckouts, type RepositoryCheckout } from '../../environments/repositories';
import { RunFailureError } from '../../runs/contract';
import type { HostOwner, RunSandbox } from '../sandbox';
import { openGitStep, type GitStep } from './git';
import { gitTokenFor, readState, repositoryKey, runBranch, workspaceEntry, writeState, type CheckoutState } from './state';

export class RepositoryUnavailableError extends RunFailureError {
  override readonly name = 'RepositoryUnavailableError';
  constructor(message: string) {
    super(message, 'repository_unavailable');
  }
}

type Deps = Pick<ServerContext, 'settings' | 'sandbox' | 'db' | 'secrets' | 'log'>;

/** The worker's clone step (engine/run-environment.ts), before the setup commands. */
export async function checkoutRepositories(
  ctx: Deps,
  run: { id: string; team_id: string },
  workDir: string,
  environment: EnvironmentForRun,
  sandbox: RunSandbox,
  signal: AbortSignal,
): Promise<void> {
  const checkouts = repositoryCheckouts(environment.repositories, ctx.settings.githubBaseUrl);
  if (checkouts.length === 0) return;
  const token = await gitTokenFor(ctx, run.team_id, environment.repositories);
  const git = openGitStep(ctx, sandbox, run.id, workDir, token.value, signal);
  for (const checkout of checkouts) {
    const key = repositoryKey(checkout.path);
    if (await readState(git, key)) continue;
    if (token.missing) throw unavailable(checkout, `the team secret ${token.missing} named by the environment does not exist`);
    await cloneOne(git, sandbox.workspaceOwner, run.id, workDir, checkout, key);
    if (signal.aborted) throw Object.assign(new Error('repository checkout was aborted'), { name: 'AbortError' });
  }
}

async function chownTree(dir: string, owner: HostOwner): Promise<void> {
  await fs.lchown(dir, owner.uid, owner.gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    await fs.lchown(path.join(entry.parentPath, entry.name), owner.uid, owner.gid);
  }
}

const unavailable = (checkout: RepositoryCheckout, why: string) =>
  new RepositoryUnavailableError(`Repository ${checkout.label} could not be checked out: ${why}`);

async function cloneOne(git: GitStep, owner: HostOwner | undefined, runId: string, workDir: string, checkout: RepositoryCheckout, key: string): Promise<void> {
  const target = path.join(workDir, checkout.path);
  // The server writes the checkout's directories and the agent's .git with its own rights: never through a link.
  if ((await workspaceEntry(workDir, checkout.path)) !== 'missing') throw unavailable(checkout, `${checkout.path} already exists in the workspace`);
  const gitDir = git.hostGitDir(key);
  await fs.rm(gitDir, { recursive: true, force: true }); // a clone an earlier execution did not finish
  const must = async (args: string[], opts: { repository?: boolean; workTree?: boolean } = {}) => {
    const result = await git.run({ args, ...(opts.repository ? { repository: key } : {}), ...(opts.workTree ? { workTree: checkout.path } : {}) });
    if (!result.ok) throw unavailable(checkout, result.error);
    return result.stdout.trim();
  };
  await must(['clone', '--bare', '--quiet', '--', checkout.url, git.gitDirInside(key)]);

  const defaultBranch = await must(['symbolic-ref', '--short', 'HEAD'], { repository: true });
  const branch = runBranch(runId);
  const resolve = async (candidates: string[]) => {
    for (const candidate of candidates) {
      const found = await git.run({ args: ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`], repository: key });
      if (found.ok) return found.stdout.trim();
    }
    return undefined;
  };
  const asked = checkout.ref ?? defaultBranch;
  const baseCommit = await resolve([`refs/heads/${asked}`, `refs/tags/${asked}`, ...(/^[0-9a-f]{7,64}$/i.test(asked) ? [asked] : [])]);
  if (!baseCommit) throw unavailable(checkout, `no branch, tag or commit "${asked}" in the repository`);
  const baseIsBranch = (await resolve([`refs/heads/${asked}`])) !== undefined;
  const continued = await resolve([`refs/heads/${branch}`]);

  const firstMade = await fs.mkdir(target, { recursive: true, mode: 0o700 });
  if (owner && firstMade) {
    // Every directory made here (`vendor/` of `vendor/util`) is the run's, or its git cannot reach the checkout.
    for (let dir = target; dir.length >= firstMade.length; dir = path.dirname(dir)) await fs.chown(dir, owner.uid, owner.gid);
  }
  if (continued) await must(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { repository: true });
  else if (baseIsBranch) await must(['symbolic-ref', 'HEAD', `refs/heads/${asked}`], { repository: true });
  else await must(['update-ref', '--no-deref', 'HEAD', baseCommit], { repository: true });
  await must(['reset', '--quiet', '--hard'], { repository: true, workTree: true });

  // The agent's own repository: a copy taken before any of its processes ran, as a clone would leave it.
  const agentGitDir = path.join(target, '.git');
  await fs.cp(gitDir, agentGitDir, { recursive: true });
  const configFile = path.join(agentGitDir, 'config');
  await fs.writeFile(configFile, (await fs.readFile(configFile, 'utf8')).replace(/\bbare = true\b/, 'bare = false'));
  // The copy is the agent's to change: its processes run as the sandbox's host uid.
  if (owner) await chownTree(agentGitDir, owner);

  const state: CheckoutState = {
    path: checkout.path,
    baseCommit,
    baseBranch: baseIsBranch ? asked : defaultBranch,
    branch,
    ...(continued ? { pushedCommit: continued } : {}),
  };
  await writeState(git, key, state);
}
