/**
 * The repositories of an environment (docs/decisions.md §Repositories and pull requests): Oz's
 * `github_repos`, the `repos` extension (any git URL over http(s)), the team secret that holds the git
 * token and `auto_pr` — checked on create and update, stored as one JSON column, shown in
 * CloudEnvironmentConfig, and resolved for a run into one list of checkouts.
 */
import type { components } from '@agent-runs/contract';
import { invalidRequest } from '../problems';

type Schemas = components['schemas'];
type GitHubRepository = Schemas['GitHubRepository'];
type GitRepository = Schemas['GitRepository'];

/** What `environments.repositories` holds. */
export interface EnvironmentRepositories {
  github_repos: GitHubRepository[];
  repos: GitRepository[];
  git_token_secret_name?: string;
  auto_pr?: boolean;
}

/** The request fields this module owns (createEnvironment, updateEnvironment). */
export interface RepositoryFields {
  github_repos?: GitHubRepository[];
  repos?: GitRepository[];
  git_token_secret_name?: string | null;
  auto_pr?: boolean;
}

/** The team secret used when an environment names none. */
export const DEFAULT_GIT_TOKEN_SECRET = 'GIT_TOKEN';
export const MAX_REPOSITORIES = 10;
const RESERVED_TOP_LEVEL = new Set(['.artifacts', '.git']);

/** One repository a run checks out: where from, at what, where to. */
export interface RepositoryCheckout {
  /** The clone URL (no credentials). */
  url: string;
  /** What the user named, for messages: `owner/repo` or the URL. */
  label: string;
  ref: string | undefined;
  /** Relative to the workspace. */
  path: string;
  /** Set for `github_repos`: the pull request API is GitHub's. */
  github?: { owner: string; repo: string };
}

/** The stored value after a create (`previous` undefined) or an update; null when nothing is configured. */
export function mergeRepositories(previous: EnvironmentRepositories | undefined, input: RepositoryFields): EnvironmentRepositories | null {
  const merged: EnvironmentRepositories = {
    github_repos: input.github_repos ?? previous?.github_repos ?? [],
    repos: input.repos ?? previous?.repos ?? [],
  };
  const secretName = input.git_token_secret_name === undefined ? previous?.git_token_secret_name : (input.git_token_secret_name ?? undefined);
  if (secretName !== undefined) merged.git_token_secret_name = secretName;
  const autoPr = input.auto_pr ?? previous?.auto_pr;
  if (autoPr) merged.auto_pr = true;
  checkRepositories(merged);
  const empty = merged.github_repos.length === 0 && merged.repos.length === 0 && !merged.git_token_secret_name && !merged.auto_pr;
  return empty ? null : merged;
}

export const parseRepositories = (text: string | null): EnvironmentRepositories | undefined =>
  text ? (JSON.parse(text) as EnvironmentRepositories) : undefined;

/** The CloudEnvironmentConfig fields of the repositories (absent when empty or unset). */
export function repositoryConfigFields(stored: EnvironmentRepositories | undefined): Partial<EnvironmentRepositories> {
  if (!stored) return {};
  return {
    ...(stored.github_repos.length > 0 ? { github_repos: stored.github_repos } : {}),
    ...(stored.repos.length > 0 ? { repos: stored.repos } : {}),
    ...(stored.git_token_secret_name ? { git_token_secret_name: stored.git_token_secret_name } : {}),
    ...(stored.auto_pr ? { auto_pr: true } : {}),
  };
}

/** Every repository as a run checks it out, GitHub's first, in the order given. */
export function repositoryCheckouts(stored: EnvironmentRepositories | undefined, githubBaseUrl: string): RepositoryCheckout[] {
  if (!stored) return [];
  const github = stored.github_repos.map((r) => ({
    url: `${githubBaseUrl}/${r.owner}/${r.repo}.git`,
    label: `${r.owner}/${r.repo}`,
    ref: r.ref,
    path: r.path ?? r.repo,
    github: { owner: r.owner, repo: r.repo },
  }));
  const plain = stored.repos.map((r) => ({ url: r.url, label: r.url, ref: r.ref, path: r.path ?? nameOfUrl(r.url) }));
  return [...github, ...plain];
}

/** The last path component of a git URL without `.git`: what `git clone` names the directory. */
function nameOfUrl(url: string): string {
  const last = new URL(url).pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return last.replace(/\.git$/, '') || 'repository';
}

function checkRepositories(stored: EnvironmentRepositories): void {
  const total = stored.github_repos.length + stored.repos.length;
  if (total > MAX_REPOSITORIES) {
    throw invalidRequest(`An environment may name at most ${MAX_REPOSITORIES} repositories; this one names ${total}.`, [
      { path: '$.repos', message: `at most ${MAX_REPOSITORIES} repositories with github_repos` },
    ]);
  }
  stored.repos.forEach((r, i) => checkUrl(r.url, `$.repos[${i}].url`));
  const seen = new Map<string, string>();
  const paths = [
    ...stored.github_repos.map((r, i) => ({ path: r.path ?? r.repo, at: `$.github_repos[${i}]` })),
    ...stored.repos.map((r, i) => ({ path: r.path ?? nameOfUrl(r.url), at: `$.repos[${i}]` })),
  ];
  for (const { path, at } of paths) {
    const parts = path.split('/');
    if (parts.some((p) => p === '.' || p === '..') || RESERVED_TOP_LEVEL.has(parts[0]!)) {
      throw invalidRequest(`Repository path "${path}" is not allowed: no . or .. components, and not under .artifacts or .git.`, [
        { path: `${at}.path`, message: 'not allowed' },
      ]);
    }
    const clash = [...seen.keys()].find((other) => other === path || other.startsWith(`${path}/`) || path.startsWith(`${other}/`));
    if (clash !== undefined) {
      throw invalidRequest(`Two repositories would be checked out at "${path}" and "${clash}" (one inside the other); give one a different path.`, [
        { path: `${at}.path`, message: `clashes with ${seen.get(clash)}` },
      ]);
    }
    seen.set(path, at);
  }
}

/** A clone URL: http(s), no credentials (the token comes from a team secret), no query or fragment. */
function checkUrl(url: string, at: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const why = !parsed
    ? 'is not an absolute URL'
    : parsed.protocol !== 'http:' && parsed.protocol !== 'https:'
      ? 'must be http or https'
      : parsed.username || parsed.password
        ? 'must not carry a user name or password (name a team secret in git_token_secret_name)'
        : parsed.search || parsed.hash
          ? 'must not have a query or fragment'
          : undefined;
  if (why) throw invalidRequest(`Repository URL ${why}.`, [{ path: at, message: why }]);
}
