/**
 * The server under test of the benchmarks that need a real one (bench:runs, bench:sdk): a child process
 * `node --import tsx packages/server/src/main.ts` (the server `pnpm start` runs, from its sources) on 127.0.0.1:<free port>, in a
 * clean environment with BOOTSTRAP_ADMIN_KEY, RUNNER=echo and LOG_LEVEL=warn, the per-key REST budget
 * (REST_REQUESTS_PER_MINUTE) RAISED through its setting rather than bypassed, and the caller's `settings`
 * (DATABASE_URL, DATA_DIR, …) over those. BENCH_SERVER_ARGS adds node flags (e.g. `--cpu-prof`).
 * Resolves once /readyz answers; `stop()` sends SIGTERM (SIGKILL after 15 s) and prints the server's
 * output if it did not exit cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import fs from 'node:fs';
import { onCleanup } from './common';

const READY_TIMEOUT_MS = 60_000;
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_MAIN = path.join(repositoryRoot, 'packages/server/src/main.ts');

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  apiUrl: string;
  adminKey: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startServerProcess(settings: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const adminKey = `ar_live_${randomBytes(32).toString('base64url')}`;
  const env: Record<string, string> = {
    // A clean environment: nothing from the caller's shell (AGENT_COMMAND, MODEL_BASE_URL…) leaks in.
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    TMPDIR: os.tmpdir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    BOOTSTRAP_ADMIN_KEY: adminKey,
    RUNNER: 'echo',
    LOG_LEVEL: 'warn',
    // Raised through the setting, not bypassed: every request still passes the budget check.
    REST_REQUESTS_PER_MINUTE: '1000000000',
    ...settings,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS ? process.env.BENCH_SERVER_ARGS.split(' ') : []), '--import', 'tsx', SERVER_MAIN],
    {
      cwd: repositoryRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const status: { exited?: { code: number | null; signal: NodeJS.Signals | null } } = {};
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      status.exited = { code, signal };
      resolve();
    }),
  );

  const stop = async () => {
    if (status.exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!status.exited) child.kill('SIGKILL');
    }, 15_000);
    await exitPromise;
    clearTimeout(timer);
    const exited = status.exited as { code: number | null; signal: NodeJS.Signals | null } | undefined;
    if (exited && exited.code !== 0 && exited.signal !== 'SIGTERM') {
      console.error(`server exited with ${exited.code ?? exited.signal}; its output:\n${output}`);
    }
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const exited = status.exited;
    if (exited) throw new Error(`server exited during start-up (${exited.code ?? exited.signal}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server not ready after ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await delay(100);
  }
  return { pid: child.pid!, baseUrl, apiUrl: `${baseUrl}/api/v1`, adminKey, stop };
}

/**
 * A server process on a SQLite database in a fresh temporary data directory (`<prefix>…`), with `settings`
 * over those; the directory and the process go at clean-up (bench/common.ts onCleanup).
 */
export async function startSqliteServerProcess(prefix: string, settings: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.sqlite')}`, DATA_DIR: dataDir, ...settings });
  onCleanup(() => server.stop());
  return server;
}
