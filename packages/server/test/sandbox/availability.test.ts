/**
 * Without bubblewrap nothing that needs a process runs, and the operator is told why; SANDBOX=none is an
 * explicit, announced choice; everything under DATA_DIR is private to the server's user (docs/sandbox.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, waitForRunState } from '../support/http';
import { makeTempDir } from '../support/databases';
import { sandboxAvailable } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';

/** A logger writing into an array, to read what the server warned about. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, warnings: () => lines.filter((l) => l.level >= 40).map((l) => l.msg) };
}

describe('sandbox availability', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('without bubblewrap: echo runs still work, a run that needs a process FAILS sandbox_unavailable naming the package, and /readyz says why', async () => {
    const captured = capturedLog();
    const emptyPath = makeTempDir('no-bwrap-'); // a PATH on which bubblewrap cannot be found
    server = await startTestServer({ env: { SANDBOX: 'bwrap', PATH: emptyPath, RUNNER: 'command', AGENT_COMMAND: 'echo hi' }, log: captured.log });
    const client = apiClient(server.apiUrl, server.adminKey);

    const ready = await apiClient(server.baseUrl).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.sandbox).toMatchObject({ mode: 'bwrap', available: false, problems: [expect.stringContaining('`bubblewrap`')] });
    expect(captured.warnings()).toContainEqual(expect.stringContaining('bubblewrap is not installed'));

    const created = await client.post('/agent/runs', { prompt: 'hello' });
    const run = await waitForRunState(client, created.body.run_id, ['FAILED']);
    expect(run.status_message).toEqual({
      message: expect.stringContaining('install the package `bubblewrap`'),
      error_code: 'sandbox_unavailable',
      retryable: false,
    });
  });

  it('the echo runner needs no sandbox', async () => {
    server = await startTestServer({ env: { SANDBOX: 'bwrap', PATH: makeTempDir('no-bwrap-') } });
    const client = apiClient(server.apiUrl, server.adminKey);
    const created = await client.post('/agent/runs', { prompt: 'hello' });
    expect((await waitForRunState(client, created.body.run_id, ['SUCCEEDED', 'FAILED'])).state).toBe('SUCCEEDED');
  });

  it('SANDBOX=none is announced at start and reported by /readyz', async () => {
    const captured = capturedLog();
    server = await startTestServer({ env: { SANDBOX: 'none' }, log: captured.log });
    expect(captured.warnings()).toContainEqual(expect.stringContaining('SANDBOX=none'));
    const ready = await apiClient(server.baseUrl).get('/readyz');
    expect(ready.body.sandbox).toEqual({ mode: 'none', available: true, network: 'allowlist', limits: 'none', disk: 'none', host_uid: null, problems: [] });
  });

  it.skipIf(!sandboxAvailable)('with bubblewrap /readyz reports the sandbox, its network policy and how limits are enforced', async () => {
    server = await startTestServer({ env: { SANDBOX_NETWORK: 'open' } });
    const ready = await apiClient(server.baseUrl).get('/readyz');
    expect(ready.body.sandbox).toMatchObject({
      mode: 'bwrap',
      available: true,
      network: 'open',
      limits: expect.stringMatching(/^(cgroup v1|cgroup v2|rlimit)$/),
    });
  });
});

describe('DATA_DIR', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('holds only 0700 directories and 0600 files: database, WAL, secrets key, run workspaces (as root, 0711 on the way to the workspaces)', async () => {
    const parent = makeTempDir('data-dir-');
    // As root, bubblewrap starts as SANDBOX_HOST_UID and must pass through DATA_DIR's parents (docs/sandbox.md).
    const throughToWorkspaces = sandboxAvailable && process.getuid?.() === 0;
    if (throughToWorkspaces) fs.chmodSync(parent, 0o711);
    const dataDir = path.join(parent, 'data');
    server = await startTestServer({
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: `sqlite:${path.join(dataDir, 'db', 'agent-runs.sqlite')}`,
        SECRETS_KEY: '',
        RUNNER: 'command',
        AGENT_COMMAND: 'echo hi > out.txt',
        SANDBOX: sandboxAvailable ? 'bwrap' : 'none',
      },
    });
    const client = apiClient(server.apiUrl, server.adminKey);
    const created = await client.post('/agent/runs', { prompt: 'hello' });
    await waitForRunState(client, created.body.run_id, ['SUCCEEDED']);

    const modes: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name === 'out.txt') continue; // written by the run itself, inside its 0700 workspace
        modes[path.relative(dataDir, full)] = (fs.statSync(full).mode & 0o777).toString(8);
      }
    };
    modes['.'] = (fs.statSync(dataDir).mode & 0o777).toString(8);
    walk(dataDir);
    // Search-only, never listable or readable: the directories bubblewrap passes through as the host uid.
    const traversed = throughToWorkspaces ? ['.', 'runs', 'sandbox', 'sandbox/etc'] : [];
    const expectedDirMode = (name: string) => (traversed.includes(name) ? '711' : '700');
    expect(modes).toMatchObject({
      '.': expectedDirMode('.'),
      db: '700',
      'db/agent-runs.sqlite': '600',
      'db/agent-runs.sqlite-wal': '600',
      'secrets.key': '600',
      runs: expectedDirMode('runs'),
      [`runs/${created.body.run_id as string}`]: '700',
    });
    const loose = Object.entries(modes).filter(([name, mode]) =>
      fs.statSync(path.join(dataDir, name)).isDirectory() ? mode !== expectedDirMode(name) : mode !== '600' && !name.startsWith('sandbox/etc/'),
    );
    expect(loose).toEqual([]);
  });
});
