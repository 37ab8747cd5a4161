/**
 * Repositories in, work out (docs/decisions.md §Repositories and pull requests), through the public API,
 * with real git over smart HTTP on loopback (test/support/git-forge.ts: `git http-backend` behind a token)
 * and the real sandbox: an environment's `github_repos` (GITHUB_BASE_URL = the forge) and plain `repos`
 * are cloned at their ref before the setup commands; a run's change is committed, pushed as
 * `agent/<short run id>`, published as a PULL_REQUEST artifact and a diff; a follow-up pushes again on
 * the same branch; `auto_pr` opens the pull request through the GitHub REST stand-in; clone failures are
 * `repository_unavailable`; a failed push keeps the diff.
 *
 * AGENT_COMMAND is `sh`: the prompt (stdin) is the script each run executes in /workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/api-keys/service';
import { testDatabases } from '../support/databases';
import { startGitForge, type GitForge } from '../support/git-forge';
import { apiClient, expectProblem, waitForRunState, type ApiClient } from '../support/http';
import { sandboxAvailable, withRunWorkspace } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';

const TOKEN = 'ghp_repositoriesTestToken0123456789abcdef';

// Every git command is a sandboxed process of its own: a run with two repositories starts a few dozen.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

type Json = any;

/** Every file under `dir` whose bytes contain `needle` (symbolic links not followed). */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && fs.readFileSync(file).includes(needle)) found.push(file);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found;
}

describe.each(testDatabases())('repositories (%s)', (database) => {
  let forge: GitForge;
  let server: TestServer;
  let admin: ApiClient;
  let member: ApiClient;

  beforeAll(async () => {
    forge = await startGitForge({ token: TOKEN });
    server = await startTestServer({
      database,
      env: { RUNNER: 'command', AGENT_COMMAND: 'sh', GITHUB_BASE_URL: forge.url, SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${forge.port}` },
    });
    const team = await server.createTeamWithKey('repos', 'admin');
    admin = apiClient(server.apiUrl, team.apiKey);
    // Admins configure environments and secrets; a member of the team starts the runs.
    const memberKey = await createApiKey(server.ctx.db, server.ctx.clock, { teamId: team.teamId, name: 'repos-member', role: 'member', createdBy: 'operator' });
    member = apiClient(server.apiUrl, memberKey.api_key);
    expect((await admin.request('PUT', '/secrets/GIT_TOKEN', { body: { value: TOKEN } })).status).toBe(200);
    expect((await admin.request('PUT', '/secrets/WRONG_TOKEN', { body: { value: 'ghp_not_the_token_at_all_000000' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await forge?.close();
  });

  let environments = 0;
  const environment = async (fields: Json) => {
    const created = await admin.post('/agent/environments', { name: `env-${(environments += 1)}`, ...fields });
    expect(created.status).toBe(201);
    return created.body;
  };
  const run = async (environmentId: string, script: string, states = ['SUCCEEDED']) => {
    const created = await member.post('/agent/runs', { prompt: script, config: { environment_id: environmentId } });
    expect(created.status).toBe(200);
    return waitForRunState(member, created.body.run_id, states, 60_000);
  };
  const followup = async (runId: string, script: string) => {
    expect((await member.post(`/agent/runs/${runId}/followups`, { message: script })).body.state).toBe('QUEUED');
    return waitForRunState(member, runId, ['SUCCEEDED', 'FAILED', 'ERROR'], 60_000);
  };
  const download = async (artifactUid: string) => {
    const answer = await member.get(`/agent/artifacts/${artifactUid}`);
    expect(answer.status).toBe(200);
    return (await fetch(answer.body.data.download_url)).text();
  };

  it("clones github_repos at a branch and repos at a tag before the setup commands, and pushes a run's change as its branch with a PULL_REQUEST and a diff; a follow-up pushes again on the same branch", async () => {
    const name = `acme/app`;
    forge.createRepository(name, { 'README.md': 'hello\n', 'src/main.txt': 'main\n' }, { branches: { dev: { 'src/dev.txt': 'dev\n' } } });
    forge.createRepository(`libs/util`, { 'util.txt': 'v1\n' }, { tags: ['v1.0'] });
    const [owner, repo] = name.split('/') as [string, string];
    const env = await environment({
      github_repos: [{ owner, repo, ref: 'dev' }],
      repos: [{ url: `${forge.url}/libs/util.git`, ref: 'v1.0', path: 'vendor/util' }],
      setup_commands: [`test -f ${repo}/src/dev.txt && test -f vendor/util/util.txt && echo cloned > setup-saw-repos`],
    });
    expect(env.config.github_repos).toEqual([{ owner, repo, ref: 'dev' }]);

    const first = await run(env.uid, `cd ${repo} && echo "changed by the agent" >> README.md && git status --short > ../agent-git-status`);
    expect(first.status_message ?? null).toBeNull();
    await withRunWorkspace(server.ctx, first.run_id, (dir) => {
      expect(fs.readFileSync(path.join(dir, 'setup-saw-repos'), 'utf8')).toBe('cloned\n');
      // The agent had an ordinary repository of its own.
      expect(fs.readFileSync(path.join(dir, 'agent-git-status'), 'utf8')).toBe(' M README.md\n');
    });

    const branch = `agent/${first.run_id.slice(0, 8)}`;
    const log = forge.git(name, ['log', '--format=%an|%s|%b', branch]).trim().split('\n');
    expect(log[0]).toMatch(new RegExp(`^agent run ${first.run_id.slice(0, 8)}\\|.+\\|Made by agent run ${first.run_id}\\.`));
    expect(forge.git(name, ['rev-parse', `${branch}~1`])).toBe(forge.git(name, ['rev-parse', 'dev']));
    expect(forge.git(name, ['show', `${branch}:README.md`])).toBe('hello\nchanged by the agent\n');
    // The tag checkout was not changed: nothing pushed there.
    expect(forge.git(`libs/util`, ['branch', '--list', 'agent/*'])).toBe('');

    const types = first.artifacts.map((a: Json) => [a.artifact_type, a.data.filepath ?? a.data.url]);
    expect(types).toEqual([
      ['FILE', `repositories/${repo}.diff`],
      ['PULL_REQUEST', `${forge.url}/${owner}/${repo}/compare/dev...${branch}`],
    ]);
    expect(first.artifacts[1].data.branch).toBe(branch);
    const diff = await download(first.artifacts[0].data.artifact_uid);
    expect(diff).toContain('+changed by the agent');
    expect(diff).toContain('a/README.md');

    const firstHead = forge.git(name, ['rev-parse', branch]);
    const second = await followup(first.run_id, `cd ${repo} && echo "second" > src/second.txt`);
    expect(second.state).toBe('SUCCEEDED');
    expect(forge.git(name, ['rev-parse', `${branch}~1`])).toBe(firstHead);
    expect(
      forge
        .git(name, ['log', '--format=%s', `dev..${branch}`])
        .trim()
        .split('\n'),
    ).toHaveLength(2);
    expect(forge.git(name, ['show', `${branch}:src/second.txt`])).toBe('second\n');
    // A new diff (the whole run so far), the same PULL_REQUEST link not repeated.
    const after = second.artifacts.map((a: Json) => a.artifact_type);
    expect(after).toEqual(['FILE', 'PULL_REQUEST', 'FILE']);
    const secondDiff = await download(second.artifacts[2].data.artifact_uid);
    expect(secondDiff).toContain('+changed by the agent');
    expect(secondDiff).toContain('+second');
  });

  it('opens the pull request with auto_pr and the artifact carries its URL', async () => {
    const name = `acme/pr`;
    forge.createRepository(name, { 'a.txt': 'a\n' });
    const [owner, repo] = name.split('/') as [string, string];
    const env = await environment({ github_repos: [{ owner, repo }], auto_pr: true });
    expect(env.config.auto_pr).toBe(true);
    const done = await run(env.uid, `echo b > ${repo}/b.txt`);
    const call = forge.pullRequests.find((p) => p.repo === repo)!;
    expect(call).toMatchObject({ owner, authorization: `Bearer ${TOKEN}`, body: { head: `agent/${done.run_id.slice(0, 8)}`, base: 'main' } });
    expect(call.body.body).toContain(done.run_id);
    const pr = done.artifacts.find((a: Json) => a.artifact_type === 'PULL_REQUEST');
    expect(pr.data).toEqual({ url: `${forge.url}/${owner}/${repo}/pull/${forge.pullRequests.length}`, branch: `agent/${done.run_id.slice(0, 8)}` });
  });

  it('leaves nothing for a run that changed nothing', async () => {
    const name = `acme/quiet`;
    forge.createRepository(name, { 'a.txt': 'a\n' });
    const [owner, repo] = name.split('/') as [string, string];
    const done = await run((await environment({ github_repos: [{ owner, repo }] })).uid, `cat ${repo}/a.txt`);
    expect(done.artifacts ?? []).toEqual([]);
    expect(forge.git(name, ['branch', '--list', 'agent/*'])).toBe('');
  });

  it('ends FAILED repository_unavailable for an unknown repository, an unknown ref, a refused token and a refused host, never echoing the token', async () => {
    forge.createRepository(`acme/known`, { 'a.txt': 'a\n' });
    const cases: Array<[Json, RegExp]> = [
      [{ github_repos: [{ owner: 'acme', repo: `missing` }] }, /not found|404/i],
      [{ github_repos: [{ owner: 'acme', repo: `known`, ref: 'no-such-branch' }] }, /no branch, tag or commit "no-such-branch"/],
      [{ github_repos: [{ owner: 'acme', repo: `known` }], git_token_secret_name: 'WRONG_TOKEN' }, /Authentication failed|401|could not read/i],
      [{ repos: [{ url: `http://127.0.0.1:${forge.port + 1}/acme/known.git` }] }, /egress to 127\.0\.0\.1:\d+ denied/],
    ];
    for (const [fields, reason] of cases) {
      const failed = await run((await environment({ ...fields, setup_commands: ['touch setup-ran'] })).uid, 'touch agent-ran', ['FAILED', 'ERROR']);
      expect(failed.state).toBe('FAILED');
      expect(failed.status_message).toMatchObject({ error_code: 'repository_unavailable', retryable: false });
      expect(failed.status_message.message).toMatch(/^Repository \S+ could not be checked out: /);
      expect(failed.status_message.message).toMatch(reason);
      expect(failed.status_message.message).not.toContain(TOKEN);
      await withRunWorkspace(server.ctx, failed.run_id, (dir) => {
        expect(fs.existsSync(path.join(dir, 'setup-ran'))).toBe(false);
        expect(fs.existsSync(path.join(dir, 'agent-ran'))).toBe(false);
      });
      expect((await admin.get(`/agent/environments/${failed.agent_config.environment_id}`)).body.setup_failed).toBe(true);
    }
  });

  it('keeps the diff and says why when the push is refused, and the next follow-up pushes', async () => {
    const name = `acme/refused`;
    forge.createRepository(name, { 'a.txt': 'a\n' });
    const [owner, repo] = name.split('/') as [string, string];
    const env = await environment({ github_repos: [{ owner, repo }] });
    forge.refusePushes(true);
    let done: Json;
    try {
      done = await run(env.uid, `echo kept > ${repo}/kept.txt`);
    } finally {
      forge.refusePushes(false);
    }
    expect(done.status_message).toMatchObject({ error_code: 'repository_push_failed', retryable: true });
    expect(done.status_message.message).toContain(`${owner}/${repo}: push of agent/${done.run_id.slice(0, 8)} failed`);
    expect(done.status_message.message).not.toContain(TOKEN);
    expect(done.artifacts.map((a: Json) => a.artifact_type)).toEqual(['FILE']);
    expect(await download(done.artifacts[0].data.artifact_uid)).toContain('+kept');
    expect(forge.git(name, ['branch', '--list', 'agent/*'])).toBe('');

    const again = await followup(done.run_id, 'true');
    expect(again.status_message ?? null).toBeNull();
    expect(forge.git(name, ['show', `agent/${done.run_id.slice(0, 8)}:kept.txt`])).toBe('kept\n');
    expect(again.artifacts.map((a: Json) => a.artifact_type)).toEqual(['FILE', 'PULL_REQUEST']);
  });

  it.skipIf(!sandboxAvailable)(
    "keeps the token out of the run's reach, and nothing the agent plants in the workspace runs or redirects the git step",
    async () => {
      const name = `acme/hostile`;
      forge.createRepository(name, { 'a.txt': 'a\n' });
      const [owner, repo] = name.split('/') as [string, string];
      const env = await environment({ github_repos: [{ owner, repo }], auto_pr: true });
      const evil = (what: string) => `sh -c 'env > /workspace/pwned-${what}; cp -r /proc/self/environ /workspace/pwned-${what}-environ 2>/dev/null; true'`;
      const script = [
        // What the run can read: its environment, every process it can see, every file of the workspace.
        'env > seen-env',
        'for p in /proc/[0-9]*; do cat $p/cmdline $p/environ 2>/dev/null; echo; done > seen-proc',
        `cd ${repo}`,
        // Its own .git: hooks, fsmonitor, a redirect, a filter driver, an include.
        'mkdir -p .git/hooks',
        `printf '#!/bin/sh\\n${evil('hook').replace(/'/g, "'\\''")}\\n' > .git/hooks/pre-commit; cp .git/hooks/pre-commit .git/hooks/pre-push; cp .git/hooks/pre-commit .git/hooks/post-commit; chmod +x .git/hooks/*`,
        `git config core.fsmonitor "${evil('fsmonitor').replace(/"/g, '\\"')}"`,
        `git config url.http://127.0.0.1:9/.insteadOf ${forge.url}/`,
        `git config filter.evil.clean "${evil('filter').replace(/"/g, '\\"')}"`,
        'git config include.path /workspace/evil.gitconfig',
        `printf '[core]\\n\\tfsmonitor = touch /workspace/pwned-include\\n' > /workspace/evil.gitconfig`,
        // The home directory's configuration and the attributes of the work tree.
        `printf '[core]\\n\\thooksPath = /workspace/${repo}/.git/hooks\\n\\tfsmonitor = touch /workspace/pwned-home\\n[url "http://127.0.0.1:9/"]\\n\\tinsteadOf = ${forge.url}/\\n' > /workspace/.gitconfig`,
        `printf '* filter=evil\\n' > .gitattributes`,
        'echo change > changed.txt',
      ].join('\n');
      const done = await run(env.uid, script);
      expect(done.status_message ?? null).toBeNull();

      // The push went where the server said, with the agent's change (and its .gitattributes, as a file).
      const branch = `agent/${done.run_id.slice(0, 8)}`;
      expect(forge.git(name, ['show', `${branch}:changed.txt`])).toBe('change\n');
      expect(forge.git(name, ['show', `${branch}:.gitattributes`])).toBe('* filter=evil\n');
      expect(forge.pullRequests.some((p) => p.repo === repo)).toBe(true);
      await withRunWorkspace(server.ctx, done.run_id, (dir) => {
        // What the agent planted is there (a git that read it would have run it)…
        const planted = fs.readFileSync(path.join(dir, repo, '.git', 'config'), 'utf8');
        for (const text of ['pwned-fsmonitor', 'insteadOf', 'pwned-filter', 'path = /workspace/evil.gitconfig']) expect(planted).toContain(text);
        expect(fs.statSync(path.join(dir, repo, '.git', 'hooks', 'pre-push')).mode & 0o111).not.toBe(0);
        // …and nothing of it ran.
        expect(fs.readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
        expect(fs.readdirSync(path.join(dir, repo)).filter((f) => f.startsWith('pwned'))).toEqual([]);
        // The run saw processes (its own), but the token nowhere: not in its environment, its /proc, any file.
        expect(fs.readFileSync(path.join(dir, 'seen-proc'), 'utf8')).toContain('/proc/');
        expect(filesContaining(dir, TOKEN)).toEqual([]);
        expect(filesContaining(dir, Buffer.from(`x-access-token:${TOKEN}`).toString('base64'))).toEqual([]);
      });
      // Nor did the server write it down beside its own git directories.
      expect(filesContaining(path.join(server.ctx.settings.dataDir, 'repositories', done.run_id), TOKEN)).toEqual([]);
      // It travelled to the forge as Basic auth only.
      expect(forge.gitAuthorizations.some((a) => a === `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`)).toBe(true);
    },
  );

  it('commits nothing through a link the agent put where the checkout was', async () => {
    const name = 'acme/linked';
    forge.createRepository(name, { 'a.txt': 'a\n' });
    const [owner, repo] = name.split('/') as [string, string];
    const done = await run(
      (await environment({ github_repos: [{ owner, repo }] })).uid,
      `mkdir elsewhere && echo x > elsewhere/x.txt && rm -rf ${repo} && ln -s elsewhere ${repo}`,
    );
    expect(done.status_message).toMatchObject({
      error_code: 'repository_push_failed',
      message: expect.stringContaining(`the checkout at ${repo} is no longer a directory`),
    });
    expect(forge.git(name, ['branch', '--list', 'agent/*'])).toBe('');
    expect(done.artifacts ?? []).toEqual([]);
  });

  it('checks the repository fields of an environment', async () => {
    const bad = async (fields: Json, code: number, pathText: string) => {
      const answer = await admin.post('/agent/environments', { name: `bad-${(environments += 1)}`, ...fields });
      expectProblem(answer, code, 'invalid_request');
      expect(JSON.stringify(answer.body.errors ?? [])).toContain(pathText);
    };
    await bad({ repos: [{ url: `http://user:${TOKEN}@127.0.0.1/x.git` }] }, 400, 'repos');
    await bad({ repos: [{ url: 'ftp://example.com/x.git' }] }, 400, 'repos');
    await bad({ git_token_secret_name: 'NO_SUCH_SECRET' }, 400, 'git_token_secret_name');
    await bad({ github_repos: [{ owner: 'a', repo: 'x' }], repos: [{ url: 'https://example.com/b/x.git' }] }, 400, 'repos[0].path');
    await bad({ repos: [{ url: 'https://example.com/b/x.git', path: '.artifacts' }] }, 400, 'repos[0].path');

    const env = await environment({ github_repos: [{ owner: 'a', repo: 'x' }], git_token_secret_name: 'GIT_TOKEN' });
    expect(env.config).toMatchObject({ github_repos: [{ owner: 'a', repo: 'x' }], git_token_secret_name: 'GIT_TOKEN' });
    const cleared = await admin.request('PATCH', `/agent/environments/${env.uid}`, {
      body: { git_token_secret_name: null, repos: [{ url: 'https://example.com/b/y.git' }] },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.config.git_token_secret_name).toBeUndefined();
    expect(cleared.body.config.github_repos).toEqual([{ owner: 'a', repo: 'x' }]);
    expect(cleared.body.config.repos).toEqual([{ url: 'https://example.com/b/y.git' }]);
  });
});
