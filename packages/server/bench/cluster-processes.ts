/**
 * Several real server processes on one database (docs/decisions.md §Several processes), shared by the
 * cluster tests (test/cluster/support/cluster.ts) and `pnpm bench:cluster`: each a child
 * `node packages/server/dist/main.js` (the compiled server, `buildServer`) with its own ROLE, on its own
 * port, with the group's settings (DATABASE_URL, DATA_DIR, SECRETS_KEY, …) under its own.
 *
 *   const group = processGroup({ DATABASE_URL, DATA_DIR, … });
 *   const api1 = await group.start('api-1', 'api,ingress');   // resolves once its /readyz answers 200
 *   api1.kill('SIGKILL');
 *   await group.stopAll();                                    // SIGTERM to every process still running
 */
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = path.resolve(serverDir, '../..');
export const compiledMain = path.join(serverDir, 'dist/main.js');
const READY_TIMEOUT_MS = 30_000;

/** Builds packages/server/dist (docs/decisions.md §Production build); returns how long it took, ms. */
export function buildServer(): number {
  const started = Date.now();
  const build = spawnSync(path.join(serverDir, 'node_modules/.bin/tsup'), [], { cwd: serverDir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}\n${build.stderr}`);
  return Date.now() - started;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ClusterProcess {
  name: string;
  roles: string;
  pid: number;
  baseUrl: string;
  /** …/api/v1 (answers only on processes with the api role). */
  apiUrl: string;
  /** The last 50 kB of its stdout and stderr. */
  output(): string;
  running(): boolean;
  exited: Promise<ProcessExit>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves with how it ended. */
  stop(timeoutMs?: number): Promise<ProcessExit>;
}

export interface ProcessGroup {
  /** Every process started, stopped ones included, in start order. */
  processes: ClusterProcess[];
  /** Starts `node dist/main.js` with ROLE=`roles` and resolves once its /readyz answers 200. */
  start(name: string, roles: string, env?: Record<string, string>): Promise<ClusterProcess>;
  /** Stops every process still running; how each of `processes` ended. */
  stopAll(): Promise<ProcessExit[]>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Processes started with `common` settings (PATH and HOME are added from this process when absent) and
 * `nodeArgs` before the script (e.g. `--cpu-prof`).
 */
export function processGroup(common: Record<string, string>, nodeArgs: string[] = []): ProcessGroup {
  const processes: ClusterProcess[] = [];
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', HOST: '127.0.0.1', ...common };

  const start = async (name: string, roles: string, env: Record<string, string> = {}): Promise<ClusterProcess> => {
    const port = Number(env.PORT ?? (await freePort()));
    const child = spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, compiledMain], {
      cwd: repositoryRoot,
      env: { ...base, ROLE: roles, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-50_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let ended: ProcessExit | undefined;
    const exited = new Promise<ProcessExit>((resolve) =>
      child.once('exit', (code, signal) => {
        ended = { code, signal };
        resolve(ended);
      }),
    );
    const baseUrl = `http://127.0.0.1:${port}`;
    const member: ClusterProcess = {
      name,
      roles,
      pid: child.pid!,
      baseUrl,
      apiUrl: `${baseUrl}/api/v1`,
      output: () => output,
      running: () => ended === undefined,
      exited,
      kill: (signal) => {
        if (ended === undefined) child.kill(signal);
      },
      async stop(timeoutMs = 15_000) {
        if (ended) return ended;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const result = await exited;
        clearTimeout(timer);
        return result;
      },
    };
    processes.push(member);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (ended) throw new Error(`${name} exited during start-up (${ended.code ?? ended.signal}):\n${output}`);
      const ready = await fetch(`${baseUrl}/readyz`).then(
        async (res) => (await res.arrayBuffer(), res.ok),
        () => false,
      );
      if (ready) return member;
      if (Date.now() > deadline) {
        await member.stop();
        throw new Error(`${name} not ready after ${READY_TIMEOUT_MS} ms:\n${output}`);
      }
      await delay(50);
    }
  };

  return { processes, start, stopAll: () => Promise.all(processes.map((member) => member.stop())) };
}

/** Whether a process ended as asked to (0, or the SIGTERM / SIGKILL it was sent). */
export const exitedCleanly = (exit: ProcessExit): boolean => exit.code === 0 || exit.signal === 'SIGKILL' || exit.signal === 'SIGTERM';
