/**
 * The compiled server (docs/decisions.md §Production build): `pnpm build`'s dist/ runs with plain node, from
 * any working directory, and finds what it reads at run time — migrations, the contract, the bundled skills,
 * the checkpoint thread's script — as it does from the sources. Built once, here.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKeyValue } from '../../src/crypto/ids';
import { makeTempDir } from '../support/databases';
import { apiClient, expectProblem, waitForRunState } from '../support/http';
import { testSandboxMode } from '../support/sandbox';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const compiledMain = path.join(serverDir, 'dist/main.js');
const bin = path.join(serverDir, 'bin/agent-runs-server.mjs');
const sourceMigrations = fs
  .readdirSync(path.join(serverDir, 'src/db/migrations'))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = makeTempDir(prefix);
  tempDirs.push(dir);
  return dir;
};

/** A fresh SQLite data directory's settings; the process runs elsewhere, so nothing may lean on its cwd. */
function freshEnvironment(extra: Record<string, string> = {}): { env: Record<string, string>; cwd: string } {
  const dataDir = tempDir('agent-runs-compiled-');
  return {
    cwd: tempDir('agent-runs-compiled-cwd-'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'agent-runs.sqlite')}`,
      SANDBOX: testSandboxMode,
      ...extra,
    },
  };
}

beforeAll(() => {
  const build = spawnSync(path.join(serverDir, 'node_modules/.bin/tsup'), [], { cwd: serverDir, encoding: 'utf8' });
  expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
});

afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('node dist/main.js', () => {
  it('gets ready, runs a run to SUCCEEDED, serves the dashboard build (503 without one) and exits 0 on SIGTERM', async () => {
    const adminKey = newApiKeyValue();
    const dashboardDir = tempDir('agent-runs-compiled-dashboard-');
    fs.writeFileSync(path.join(dashboardDir, 'index.html'), '<!doctype html><title>compiled dashboard</title>');
    const { env, cwd } = freshEnvironment({
      PORT: '0',
      BOOTSTRAP_ADMIN_KEY: adminKey,
      RUNNER: 'echo',
      ECHO_DELAY_MS: '0',
      DASHBOARD_DIR: dashboardDir,
      LOG_LEVEL: 'info',
    });

    const child = spawn(process.execPath, [compiledMain], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', () => {
          const listening = /"port":(\d+),[^\n]*"msg":"listening"/.exec(stdout);
          if (listening) resolve(Number(listening[1]));
        });
        void exited.then(() => reject(new Error(`exited before listening:\n${stdout}\n${stderr}`)));
      });
      const base = `http://127.0.0.1:${port}`;

      // Ready means every migration compiled into dist/db/migrations/ is applied.
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status, await ready.clone().text()).toBe(200);
      expect((await ready.json()).checks).toMatchObject({ database: 'ok', migrations: 'ok' });

      // The validator loaded the contract: a prompt that is not a string is a 400 problem.
      const api = apiClient(`${base}/api/v1`, adminKey);
      expectProblem(await api.post('/agent/runs', { prompt: 42 }), 400, 'invalid_request');

      const created = await api.post('/agent/runs', { prompt: 'hello from dist' });
      expect(created.status, created.text).toBe(200);
      await waitForRunState(api, created.body.run_id, ['SUCCEEDED']);

      // The bundled skills are found from the package root (packages/server/skills/bundled).
      const skills = await api.get('/agent/skills');
      expect(skills.body.skills.filter((s: { available: boolean }) => s.available).map((s: { id: string }) => s.id)).toContain('service-platform');

      const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('compiled dashboard');
      fs.rmSync(path.join(dashboardDir, 'index.html'));
      const notBuilt = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
      expect(notBuilt.status).toBe(503);
      expect(notBuilt.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await notBuilt.json()).detail).toContain('The dashboard is not built');

      child.kill('SIGTERM');
      expect(await exited, stderr).toBe(0);
      expect(stdout).toContain('"msg":"stopped"');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('pnpm start (scripts/start.mjs): stop means stop', () => {
  const startScript = path.resolve(serverDir, '../../scripts/start.mjs');

  /** `node scripts/start.mjs` as the leader of a process group of its own, as a supervisor or a shell would start it. */
  async function startInOwnGroup() {
    const dashboardDir = tempDir('agent-runs-start-dashboard-');
    fs.writeFileSync(path.join(dashboardDir, 'index.html'), '<!doctype html><title>dashboard</title>');
    const { env } = freshEnvironment({ PORT: '0', RUNNER: 'echo', DASHBOARD_DIR: dashboardDir, LOG_LEVEL: 'info' });
    const child = spawn(process.execPath, [startScript], { cwd: path.dirname(startScript), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (d) => (output.stdout += d));
    child.stderr.on('data', (d) => (output.stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => {
        if (/"msg":"listening"/.test(output.stdout)) resolve();
      });
      void exited.then(() => reject(new Error(`exited before listening:\n${output.stdout}\n${output.stderr}`)));
    });
    const serverPid = childPidOf(child.pid!);
    return { group: child.pid!, serverPid, exited, output };
  }

  /** The one child process of `parent` (the server start.mjs runs), from /proc. */
  function childPidOf(parent: number): number {
    const children = fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          // The fourth field of /proc/<pid>/stat, after the parenthesised command name, is the parent pid.
          return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === parent;
        } catch {
          return false;
        }
      });
    expect(children).toHaveLength(1);
    return Number(children[0]);
  }

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** The server process is gone (it is not our child: nothing tells us when, so look until it is). */
  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    return !alive(pid);
  }

  const STARTS = { timeout: 180_000 };

  it('SIGKILL to the process group ends the server with it', STARTS, async () => {
    const { group, serverPid, exited } = await startInOwnGroup();
    try {
      process.kill(-group, 'SIGKILL');
      expect((await exited).signal).toBe('SIGKILL');
      expect(await gone(serverPid)).toBe(true);
    } finally {
      if (alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    }
  });

  it('one SIGTERM to the group is one graceful stop (exit 0, no "second signal")', STARTS, async () => {
    const { group, serverPid, exited, output } = await startInOwnGroup();
    try {
      process.kill(-group, 'SIGTERM');
      expect((await exited).code, output.stderr).toBe(0);
      expect(output.stdout).toContain('"msg":"stopped"');
      expect(output.stderr).not.toContain('second');
      expect(await gone(serverPid)).toBe(true);
    } finally {
      if (alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    }
  });

  it('a signal to start.mjs alone, or start.mjs killed outright, stops the server gracefully', STARTS, async () => {
    const first = await startInOwnGroup();
    process.kill(first.group, 'SIGTERM');
    expect((await first.exited).code, first.output.stderr).toBe(0);
    expect(first.output.stdout).toContain('stop requested by the parent process');
    expect(first.output.stdout).toContain('"msg":"stopped"');

    const second = await startInOwnGroup();
    try {
      process.kill(second.group, 'SIGKILL');
      expect(await gone(second.serverPid)).toBe(true);
      expect(second.output.stdout).toContain('"msg":"stopped"');
    } finally {
      if (alive(second.serverPid)) process.kill(second.serverPid, 'SIGKILL');
    }
  });
});

describe('bin/agent-runs-server.mjs', () => {
  const runBin = (args: string[], setup: { env: Record<string, string>; cwd: string }) =>
    spawnSync(process.execPath, [bin, ...args], { ...setup, encoding: 'utf8' });

  it('migrate applies every migration of the sources; admin create-team answers JSON; an unknown command exits 2', () => {
    const setup = freshEnvironment();
    const migrated = runBin(['migrate'], setup);
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toEqual({ applied: sourceMigrations });

    const team = runBin(['admin', 'create-team', 'operators'], setup);
    expect(team.status, team.stderr).toBe(0);
    expect(JSON.parse(team.stdout)).toEqual({ team_uid: expect.stringMatching(/^team_/), api_key: expect.stringMatching(/^ar_live_/) });

    const unknown = runBin(['serve'], setup);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command: serve');
  });
});
