/**
 * The forge's side of a pushed branch: the page to open a pull request from (compare URL), and GitHub's
 * REST API to open it (`POST /repos/{owner}/{repo}/pulls` on the API base of GITHUB_BASE_URL:
 * `https://api.github.com` for github.com, `<base>/api/v3` for GitHub Enterprise Server). The request is
 * the server's on the run's behalf, so it goes through the run's egress policy (engine/egress/).
 */
import type { RepositoryCheckout } from '../../environments/repositories';

export function githubApiBase(githubBaseUrl: string): string {
  return new URL(githubBaseUrl).hostname === 'github.com' ? 'https://api.github.com' : `${githubBaseUrl}/api/v3`;
}

/** The forge's compare page of the run's branch against its base (GitHub, Gitea and Forgejo's `/compare/`; GitLab redirects it). */
export function compareUrl(checkout: RepositoryCheckout, baseBranch: string, branch: string): string {
  const web = checkout.url.replace(/\/+$/, '').replace(/\.git$/, '');
  return `${web}/compare/${encodeRef(baseBranch)}...${encodeRef(branch)}`;
}

const encodeRef = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');

export interface PullRequestRequest {
  owner: string;
  repo: string;
  title: string;
  body: string;
  head: string;
  base: string;
}

/** Opens the pull request; resolves its `html_url`, or rejects with a short reason (GitHub's `message`). */
export async function openGitHubPullRequest(
  fetch: typeof globalThis.fetch,
  apiBase: string,
  token: string | undefined,
  request: PullRequestRequest,
): Promise<string> {
  const { owner, repo, ...body } = request;
  const response = await fetch(`${apiBase}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls`, {
    method: 'POST',
    headers: {
      accept: 'application/vnd.github+json',
      'content-type': 'application/json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'agent-runs',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let answer: { html_url?: unknown; message?: unknown; errors?: Array<{ message?: unknown }> } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // not JSON: the status says enough
  }
  if (response.status === 201 && typeof answer.html_url === 'string') return answer.html_url;
  const detail = [answer.message, ...(answer.errors ?? []).map((e) => e.message)].filter((m) => typeof m === 'string').join('; ');
  throw new Error(`the forge answered ${response.status}${detail ? `: ${detail.slice(0, 300)}` : ''}`);
}
