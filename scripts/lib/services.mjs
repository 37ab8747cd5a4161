// Starts the services cross-language tests need on loopback: the mock of the contract and a real
// server on a fresh SQLite file. Used by test-python.mjs (the TypeScript e2e tests start their own).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repositoryRoot } from '../python-env.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not become ready in ${timeoutMs} ms`);
}

function stopper(child, cleanup = () => {}) {
  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    cleanup();
  };
}

/** `pnpm mock` (scripts/mock.mjs): `url` is its root, `apiUrl` the REST API root under /api/v1. */
export async function startMock() {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(repositoryRoot, 'scripts/mock.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child);
  return { url, apiUrl: `${url}/api/v1`, stop: stopper(child) };
}

export async function startServer(extraEnv = {}) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-runs-e2e-'));
  const adminKey = `ar_test_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const child = spawn(process.execPath, [path.join(repositoryRoot, 'node_modules/tsx/dist/cli.mjs'), 'packages/server/src/main.ts'], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
      DATA_DIR: dir,
      BOOTSTRAP_ADMIN_KEY: adminKey,
      RUNNER: 'echo',
      ECHO_DELAY_MS: '50',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = stopper(child, () => rmSync(dir, { recursive: true, force: true }));
  try {
    await waitFor(`${baseUrl}/readyz`, child);
  } catch (err) {
    // Not ready in time (a loaded machine): the caller never gets `stop`, so the server must not outlive this.
    await stop();
    throw err;
  }
  return { baseUrl, apiUrl: `${baseUrl}/api/v1`, adminKey, stop };
}
