/**
 * Work out: when a run with repositories ends SUCCEEDED, for each checkout whose files changed since the
 * last delivery, the server commits them in its own git directory (author and message name the run),
 * publishes the run's whole diff against the checked-out commit as the FILE artifact
 * `repositories/<path>.diff`, pushes the run's branch (`agent/<short run id>`; a follow-up adds a commit
 * and pushes again), opens the pull request when the environment asks (`auto_pr`, GitHub), and publishes
 * a PULL_REQUEST artifact with the pull request's URL or the forge's compare page.
 *
 * The diff is published before the push, so a push or pull request that fails loses nothing: the run
 * stays SUCCEEDED and its status message (`repository_push_failed`) says what failed; the next delivery
 * (a follow-up) pushes again.
 */
import type { Logger } from 'pino';
import type { ArtifactPublisher } from '../../artifacts/service';
import type { ServerContext } from '../../context';
import { repositoryCheckouts, type RepositoryCheckout } from '../../environments/repositories';
import { loadEnvironmentForRun } from '../../environments/service';
import { RunNotOwnedError, type RunRow } from '../../runs/repository';
import { egressDenialOf } from '../egress/fetch';
import type { ResolvedAgentConfig, RunStatusMessage } from '../../runs/contract';
import type { RunSandbox } from '../sandbox';
import { compareUrl, githubApiBase, openGitHubPullRequest } from './forge';
import { openGitStep, type GitStep } from './git';
import { gitTokenFor, readState, repositoryKey, workspaceEntry, writeState, type CheckoutState } from './state';

type Deps = Pick<ServerContext, 'settings' | 'sandbox' | 'db' | 'secrets'>;
type Run = Pick<RunRow, 'id' | 'team_id' | 'title' | 'resolved_config' | 'config'>;

interface DeliveryContext {
  git: GitStep;
  run: Run;
  artifacts: ArtifactPublisher;
  token: string | undefined;
  autoPr: boolean;
  apiBase: string;
}

/**
 * The worker's step after a SUCCEEDED execution, under its lease. Resolves the status message the run
 * finishes with (a push or pull request that failed), or undefined.
 */
export async function deliverRepositoryChanges(
  ctx: Deps,
  run: Run,
  workDir: string,
  sandbox: RunSandbox,
  artifacts: ArtifactPublisher,
  log: Logger,
): Promise<RunStatusMessage | undefined> {
  const config = JSON.parse(run.resolved_config ?? run.config ?? '{}') as ResolvedAgentConfig | null;
  if (!config?.environment_id) return undefined;
  const environment = await loadEnvironmentForRun(ctx, run.team_id, config.environment_id);
  const checkouts = repositoryCheckouts(environment?.repositories, ctx.settings.githubBaseUrl);
  if (checkouts.length === 0) return undefined;
  const token = (await gitTokenFor(ctx, run.team_id, environment?.repositories)).value;
  const git = openGitStep(ctx, sandbox, run.id, workDir, token);
  const delivery: DeliveryContext = {
    git,
    run,
    artifacts,
    token,
    autoPr: environment?.repositories?.auto_pr === true,
    apiBase: githubApiBase(ctx.settings.githubBaseUrl),
  };
  const failures: string[] = [];
  try {
    for (const checkout of checkouts) {
      const failure = await deliverOne(delivery, workDir, checkout);
      if (failure) failures.push(git.redact(`${checkout.label}: ${failure}`));
    }
  } catch (err) {
    if (err instanceof RunNotOwnedError) return undefined;
    log.error({ err }, 'repository delivery failed');
    failures.push('the changes could not be delivered because of an internal error');
  }
  if (failures.length === 0) return undefined;
  return {
    message: `The run's changes are kept (diff artifact) but not all were delivered: ${failures.join('; ')}`,
    error_code: 'repository_push_failed',
    retryable: true,
  };
}

/** One checkout: undefined when delivered (or nothing changed), else why not. */
async function deliverOne(d: DeliveryContext, workDir: string, checkout: RepositoryCheckout): Promise<string | undefined> {
  const { git } = d;
  const key = repositoryKey(checkout.path);
  const state = await readState(git, key);
  if (!state) return undefined; // never checked out (the environment changed since)
  // The work tree must still be the directory the server made, reached through no link the agent put there.
  if ((await workspaceEntry(workDir, checkout.path)) !== 'directory') return `the checkout at ${checkout.path} is no longer a directory; nothing was committed`;

  const inRepo = (args: string[], env?: Record<string, string>) => git.run({ args, repository: key, workTree: checkout.path, ...(env ? { env } : {}) });
  const added = await inRepo(['add', '--all', '--', '.']);
  if (!added.ok) return `git add failed: ${added.error}`;
  const unchanged = await inRepo(['diff', '--cached', '--quiet', 'HEAD', '--']);
  if (!unchanged.ok) {
    const committed = await commit(d, inRepo, state);
    if (committed) return committed;
  }
  const head = (await inRepo(['rev-parse', 'HEAD'])).stdout.trim();
  if (!head || head === state.baseCommit) return undefined;

  const diffPath = `repositories/${checkout.path}.diff`;
  const diff = await inRepo(['diff', '--no-color', '--no-ext-diff', '--no-textconv', state.baseCommit, head, '--']);
  if (!diff.ok) return `the diff could not be read: ${diff.error}`;
  const published = await d.artifacts.publish({
    artifact_type: 'FILE',
    filepath: diffPath,
    sourcePath: diffPath,
    content: capped(Buffer.from(diff.stdout), d.artifacts.limits.maxFileBytes),
    description: `Changes of run ${d.run.id} in ${checkout.label} since ${state.baseCommit.slice(0, 12)}`,
  });
  const diffNote = published.status === 'rejected' ? ` (the diff artifact was refused: ${published.reason})` : '';

  if (state.pushedCommit !== head) {
    const pushed = await inRepo(['push', '--quiet', '--', checkout.url, `refs/heads/${state.branch}:refs/heads/${state.branch}`]);
    if (!pushed.ok) return `push of ${state.branch} failed: ${pushed.error}${diffNote}`;
    state.pushedCommit = head;
    await writeState(git, key, state);
  }
  let failure: string | undefined;
  if (d.autoPr && checkout.github && !state.pullRequestUrl) {
    try {
      state.pullRequestUrl = await openGitHubPullRequest(git.fetch, d.apiBase, d.token, {
        ...checkout.github,
        title: d.run.title.slice(0, 256) || `Changes by agent run ${d.run.id}`,
        body: `Opened by agent run ${d.run.id}.`,
        head: state.branch,
        base: state.baseBranch,
      });
    } catch (err) {
      failure = `opening the pull request failed: ${egressDenialOf(err)?.message ?? (err as Error).message}`;
    }
  }
  const url = state.pullRequestUrl ?? compareUrl(checkout, state.baseBranch, state.branch);
  if (url !== state.publishedUrl) {
    const link = await d.artifacts.publish({ artifact_type: 'PULL_REQUEST', url, branch: state.branch });
    if (link.status === 'published') state.publishedUrl = url;
  }
  await writeState(git, key, state);
  return failure ? `${failure}${diffNote}` : diffNote ? diffNote.trim() : undefined;
}

/** Commits what `add` staged on the run's branch; undefined when it worked, else why not. */
async function commit(
  d: DeliveryContext,
  inRepo: (args: string[], env?: Record<string, string>) => ReturnType<GitStep['run']>,
  state: CheckoutState,
): Promise<string | undefined> {
  const current = await inRepo(['symbolic-ref', '--quiet', 'HEAD']);
  if (current.stdout.trim() !== `refs/heads/${state.branch}`) {
    const moved = await inRepo(['checkout', '--quiet', '-B', state.branch]);
    if (!moved.ok) return `the branch ${state.branch} could not be made: ${moved.error}`;
  }
  const short = d.run.id.slice(0, 8);
  const who = { name: `agent run ${short}`, email: `agent-run-${d.run.id}@agent-runs.invalid` };
  const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
  const title = d.run.title.split('\n')[0]!.slice(0, 72) || 'Changes by an agent run';
  const committed = await inRepo(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', title, '-m', `Made by agent run ${d.run.id}.`], env);
  return committed.ok ? undefined : `git commit failed: ${committed.error}`;
}

/** At most `max` bytes, cut at a line end, with a last line saying so. */
function capped(diff: Buffer, max: number): Buffer {
  if (diff.length <= max) return diff;
  const note = Buffer.from(`\n[diff cut at ${max} bytes of ${diff.length}]\n`);
  const cut = diff.subarray(0, Math.max(0, max - note.length));
  const lineEnd = cut.lastIndexOf(10);
  return Buffer.concat([cut.subarray(0, lineEnd + 1), note]);
}
