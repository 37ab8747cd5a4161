/**
 * A forge on 127.0.0.1 for the repository tests: real git over smart HTTP (`git http-backend` as CGI
 * behind node:http) that requires a token (Basic auth, any user name) for clone and push, plus a
 * stand-in of GitHub's REST `POST /api/v3/repos/{owner}/{repo}/pulls` (the GitHub Enterprise Server
 * path, as GITHUB_BASE_URL=<this forge> makes the server use) answering GitHub's response shape and
 * recording each request.
 *
 *   const forge = await startGitForge({ token: 'tok' });
 *   forge.createRepository('acme/app', { 'README.md': 'hi\n' }, { tags: ['v1'], branches: { dev: {...} } });
 *   forge.url                         // http://127.0.0.1:<port> → clone `${forge.url}/acme/app.git`
 *   forge.git('acme/app', ['log', '--format=%s', 'agent/1234abcd'])   // read the bare repository
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PullRequestCall {
  owner: string;
  repo: string;
  authorization: string | undefined;
  body: { title?: string; head?: string; base?: string; body?: string };
}

export interface GitForge {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Authorization headers the git endpoint saw (to prove the token travelled as Basic auth). */
  gitAuthorizations: string[];
  pullRequests: PullRequestCall[];
  /** Answer the next pull request calls with this status and GitHub error body instead. */
  failPullRequests(status: number | undefined): void;
  /** Refuse pushes (receive-pack) from now on (a failed push). */
  refusePushes(refuse: boolean): void;
  /** A bare repository `owner/name.git` with one commit of `files` on `main`, plus tags and branches. */
  createRepository(name: string, files: Record<string, string>, extra?: { tags?: string[]; branches?: Record<string, Record<string, string>> }): void;
  /** git in the bare repository (stdout). */
  git(name: string, args: string[]): string;
  close(): Promise<void>;
}

const GIT_ENV = {
  PATH: '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'forge',
  GIT_AUTHOR_EMAIL: 'forge@example.test',
  GIT_COMMITTER_NAME: 'forge',
  GIT_COMMITTER_EMAIL: 'forge@example.test',
};

export async function startGitForge(options: { token: string }): Promise<GitForge> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-forge-'));
  const gitAuthorizations: string[] = [];
  const pullRequests: PullRequestCall[] = [];
  let failStatus: number | undefined;
  let pushesRefused = false;
  let pullNumber = 0;

  const authorized = (header: string | undefined) => {
    if (!header?.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1) === options.token;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://forge');
    const pulls = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname);
    if (pulls && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as PullRequestCall['body'];
        pullRequests.push({ owner: pulls[1]!, repo: pulls[2]!, authorization: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json; charset=utf-8');
        if (req.headers.authorization !== `Bearer ${options.token}`) {
          res.writeHead(401).end(JSON.stringify({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }));
        } else if (failStatus) {
          res.writeHead(failStatus).end(
            JSON.stringify({
              message: 'Validation Failed',
              errors: [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and the branch' }],
            }),
          );
        } else {
          pullNumber += 1;
          const htmlUrl = `${forgeUrl}/${pulls[1]}/${pulls[2]}/pull/${pullNumber}`;
          res.writeHead(201).end(
            JSON.stringify({
              id: 1000 + pullNumber,
              number: pullNumber,
              state: 'open',
              html_url: htmlUrl,
              url: `${forgeUrl}/api/v3/repos/${pulls[1]}/${pulls[2]}/pulls/${pullNumber}`,
              head: { ref: body.head },
              base: { ref: body.base },
              title: body.title,
            }),
          );
        }
      });
      return;
    }
    gitAuthorizations.push(req.headers.authorization ?? '');
    if (!authorized(req.headers.authorization)) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="forge"' }).end('authentication required\n');
      return;
    }
    const receivePack = url.pathname.endsWith('/git-receive-pack') || url.searchParams.get('service') === 'git-receive-pack';
    if (receivePack && pushesRefused) {
      res.writeHead(403).end('pushes are refused\n');
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'agent',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const forgeUrl = `http://127.0.0.1:${port}`;

  const git = (name: string, args: string[]) => execFileSync('git', args, { cwd: path.join(root, `${name}.git`), env: GIT_ENV, encoding: 'utf8' });

  const commitTree = (dir: string, files: Record<string, string>, message: string) => {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    execFileSync('git', ['add', '--all'], { cwd: dir, env: GIT_ENV });
    execFileSync('git', ['commit', '--quiet', '-m', message], { cwd: dir, env: GIT_ENV });
  };

  return {
    url: forgeUrl,
    port,
    gitAuthorizations,
    pullRequests,
    failPullRequests: (status) => {
      failStatus = status;
    },
    refusePushes: (refuse) => {
      pushesRefused = refuse;
    },
    createRepository(name, files, extra = {}) {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'git-forge-work-'));
      execFileSync('git', ['init', '--quiet', '-b', 'main', work], { env: GIT_ENV });
      commitTree(work, files, 'initial');
      for (const tag of extra.tags ?? []) execFileSync('git', ['tag', tag], { cwd: work, env: GIT_ENV });
      for (const [branch, branchFiles] of Object.entries(extra.branches ?? {})) {
        execFileSync('git', ['checkout', '--quiet', '-b', branch, 'main'], { cwd: work, env: GIT_ENV });
        commitTree(work, branchFiles, `on ${branch}`);
        execFileSync('git', ['checkout', '--quiet', 'main'], { cwd: work, env: GIT_ENV });
      }
      const bare = path.join(root, `${name}.git`);
      fs.mkdirSync(path.dirname(bare), { recursive: true });
      execFileSync('git', ['clone', '--quiet', '--bare', work, bare], { env: GIT_ENV });
      execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: bare, env: GIT_ENV });
      fs.rmSync(work, { recursive: true, force: true });
    },
    git,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
