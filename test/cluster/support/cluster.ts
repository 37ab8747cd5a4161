/**
 * Several real server processes on one fresh PostgreSQL database (docs/architecture.md §Several processes):
 * each a child `node packages/server/dist/main.js` (the build global-setup.ts made; started by
 * packages/server/bench/cluster-processes.ts, which `pnpm bench:cluster` shares) with its own ROLE, on
 * its own port, sharing the database, SECRETS_KEY, the admin key and DATA_DIR (so a run's workspace,
 * `DATA_DIR/runs/<run id>`, is the same directory whichever worker executes it).
 *
 *   const cluster = await startCluster();
 *   const api1 = await cluster.start('api-1', 'api,ingress');
 *   const worker1 = await cluster.start('worker-1', 'worker');
 *   worker1.kill('SIGKILL');
 *   await cluster.close();                 // SIGTERM to every process still running, then drops the database
 *
 * Runs execute AGENT_COMMAND (below) in the bubblewrap sandbox; without bubblewrap the echo runner stands in
 * and `executionWitness` says so.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { exitedCleanly, processGroup, type ClusterProcess } from '../../../packages/server/bench/cluster-processes';
import { newApiKeyValue } from '../../../packages/server/src/crypto/ids';
import { testDatabases, type TestDatabase } from '../../../packages/server/test/support/databases';
import { apiClient, type ApiClient } from '../../../packages/server/test/support/http';
import { sandboxAvailable } from '../../../packages/server/test/support/sandbox';

export type { ClusterProcess } from '../../../packages/server/bench/cluster-processes';

/**
 * What each execution of a run does, observable from outside: it reads `sleep <seconds>` from the prompt
 * (stdin), appends `start <execution id> <ns>` to the run's workspace file `executions`, prints
 * `executed <run id> <execution id>` (recorded as the run's output), sleeps, then appends `end …`. One
 * execution = one `executed` line in the run's output and one `start` line in its workspace.
 */
export const AGENT_COMMAND = [
  'read -r verb seconds rest || true',
  'execution=$(cat /proc/sys/kernel/random/uuid)',
  'echo "start $execution $(date +%s%N)" >> /workspace/executions',
  'echo "executed $AGENT_RUN_ID $execution"',
  'sleep "${seconds:-0}"',
  'echo "end $execution $(date +%s%N)" >> /workspace/executions',
].join('\n');

/** How an execution shows in a run's output: the command's line, or (echo runner) the prompt it answers with. */
export const executionWitness: { runner: 'command' | 'echo'; line: RegExp; note: string } = sandboxAvailable
  ? { runner: 'command', line: /^executed /m, note: 'RUNNER=command in the bubblewrap sandbox' }
  : { runner: 'echo', line: /^sleep /m, note: 'bubblewrap is unavailable: RUNNER=echo stands in for the command runner (no workspace side effect)' };

export interface ClusterOptions {
  /** Settings every process gets (over the harness's defaults). */
  env?: Record<string, string>;
  /** ECHO_DELAY_MS when the echo runner stands in for the command runner. */
  echoDelayMs?: number;
}

export interface Cluster {
  database: TestDatabase;
  dataDir: string;
  adminKey: string;
  processes: ClusterProcess[];
  /** Starts `node dist/main.js` with ROLE=`roles` and resolves once its /readyz answers 200. */
  start(name: string, roles: string, env?: Record<string, string>): Promise<ClusterProcess>;
  /** The admin key's client of a process's REST API. */
  client(process: ClusterProcess): ApiClient;
  /** Lines of a run's workspace file `executions` (command runner only). */
  workspaceExecutions(runId: string): string[];
  close(): Promise<void>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const postgres = testDatabases().find((kind) => kind.dialect === 'postgres');
  if (!postgres) throw new Error('pnpm test:cluster needs TEST_POSTGRES_URL (bash scripts/ci/start-postgres.sh prints one)');
  // A fresh database per test file; the processes migrate it as they start, as in production.
  const database = await postgres.create({ migrate: false });
  const adminKey = newApiKeyValue();
  const group = processGroup({
    DATABASE_URL: database.databaseUrl,
    DATA_DIR: database.dataDir,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_KEY: adminKey,
    LOG_LEVEL: 'warn',
    // Raised through the setting, not bypassed: every request still passes the budget check.
    REST_REQUESTS_PER_MINUTE: '1000000000',
    // One team (the admin key's) makes every run: the cluster tests measure the workers, not the team cap
    // (packages/server/test/runs/fair-claiming.test.ts does).
    TEAM_MAX_CONCURRENT_RUNS: '1000000',
    SANDBOX: sandboxAvailable ? 'bwrap' : 'none',
    SANDBOX_NETWORK: 'none',
    // The workspace stays a directory the tests read from outside (workspaceExecutions); the per-run disk
    // has its own tests (packages/server/test/sandbox/run-fence.test.ts).
    SANDBOX_DISK_MB: '0',
    ...(executionWitness.runner === 'command' ? { RUNNER: 'command', AGENT_COMMAND } : { RUNNER: 'echo', ECHO_DELAY_MS: String(options.echoDelayMs ?? 0) }),
    ...options.env,
  });
  const processes = group.processes;

  return {
    database,
    dataDir: database.dataDir,
    adminKey,
    processes,
    start: group.start,
    client: (member) => apiClient(member.apiUrl, adminKey),
    workspaceExecutions(runId) {
      const file = path.join(database.dataDir, 'runs', runId, 'executions');
      return fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : [];
    },
    async close() {
      const exits = await group.stopAll();
      const unclean = processes.filter((_, i) => !exitedCleanly(exits[i]!));
      for (const member of unclean) console.error(`${member.name} did not exit cleanly; its output:\n${member.output()}`);
      await database.close();
    },
  };
}

/** Resolves once `condition` holds (polled every `everyMs`); fails after `timeoutMs` naming `what`. */
export async function until<T>(
  condition: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs: number,
  what: string,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await delay(everyMs);
  }
}

/** The `q`-quantile (0…1) of `values` (nearest rank). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** A figure for the run's output: `cluster: <what> <value>`, collected by the reporter at the end. */
export function figure(what: string, value: string): void {
  console.log(`cluster figure: ${what}: ${value}`);
}
