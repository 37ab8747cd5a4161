/**
 * pnpm bench:agent-tools — what one workspace tool call of the built-in agent costs
 * (src/engine/runners/workspace-tools.ts; docs/decisions.md §Workspace tools of the built-in agent).
 * Prints figures; asserts nothing beyond sanity checks. Needs bubblewrap: without it, says so and exits 1.
 *
 * In this process, a sandbox as the server builds it (`createSandbox(loadSettings(…))`, the default
 * SANDBOX_NETWORK=allowlist with its egress proxy and bridge, cgroups where the host allows them) and one
 * run's `forRun(…)` on a temp workspace holding a 1 KB file. BENCH_AGENT_TOOLS_CALLS (200) rounds after
 * BENCH_AGENT_TOOLS_WARMUP (10), the three kinds interleaved in a rotating order so they share the host's noise:
 *   - bare sandbox start: `runSandbox.spawn({argv: ['/bin/true']})` until `exited` settles — what every tool
 *     call would cost if each started its own sandbox;
 *   - Bash `true`: the tool call as the runner makes it (`prepare` + `execute`: the request to the run's
 *     long-lived driver shell, `sh -c true` under `timeout`, the framed answer, the result text);
 *   - Read of the 1 KB file (`wc -l` + `sed -n` in the sandbox, numbered lines).
 * The driver is started before the first round (a run pays that once, on its first tool call; printed).
 * Goal: Bash p50 < 25 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { WorkspaceShell } from '../src/engine/runners/workspace-shell';
import { WorkspaceTools } from '../src/engine/runners/workspace-tools';
import { createSandbox } from '../src/engine/sandbox';
import { loadSettings } from '../src/settings';
import { envInt, loadAverage, onCleanup, percentile, runCleanups, sortNumbers } from './common';

const CALLS = envInt('BENCH_AGENT_TOOLS_CALLS', 200, 1);
const WARMUP = envInt('BENCH_AGENT_TOOLS_WARMUP', 10);
const GOAL_BASH_P50_MS = 25;
const HOUR_MS = 3_600_000;

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agent-tools-'));
  // The sandbox runs as SANDBOX_HOST_UID, which must be able to pass through DATA_DIR's parents (docs/sandbox.md).
  fs.chmodSync(root, 0o711);
  onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
  const workDir = path.join(root, 'workspace');
  fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });

  const settings = loadSettings({ PATH: process.env.PATH, DATA_DIR: path.join(root, 'data'), DATABASE_URL: 'sqlite::memory:', SANDBOX: 'bwrap' });
  const sandbox = createSandbox(settings, pino({ level: 'error' }));
  onCleanup(() => sandbox.close());
  if (!sandbox.status.available) {
    console.error(`bubblewrap sandbox unavailable: ${sandbox.status.problems.join('; ')}`);
    await runCleanups();
    process.exit(1);
  }
  const runSandbox = sandbox.forRun('benchagenttools', workDir);
  onCleanup(() => runSandbox.close());
  const shell = new WorkspaceShell({ sandbox: runSandbox, env: {}, lifetimeMs: HOUR_MS });
  onCleanup(() => shell.close());
  const tools = new WorkspaceTools({ shell, workspacePath: runSandbox.workspacePath, toolTimeoutMs: () => HOUR_MS });
  const signal = new AbortController().signal;

  let callId = 0;
  const toolCall = async (name: string, args: unknown, expected: RegExp): Promise<number> => {
    const started = performance.now();
    const prepared = tools.prepare(
      { id: `c${callId++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      { ok: true, value: args as Record<string, unknown> },
    )!;
    const outcome = await prepared.execute(signal);
    const ms = performance.now() - started;
    if (!expected.test(outcome.content)) throw new Error(`${name} answered ${JSON.stringify(outcome.content.slice(0, 200))}`);
    return ms;
  };
  const bareStart = async (): Promise<number> => {
    const started = performance.now();
    const proc = await runSandbox.spawn({ argv: ['/bin/true'], env: {}, stdin: 'ignore', wallTimeMs: 10_000, limitOutput: true });
    proc.stdout.resume();
    proc.stderr.resume();
    const exit = await proc.exited;
    const ms = performance.now() - started;
    if (exit.code !== 0) throw new Error(`the bare sandbox start exited ${exit.code}`);
    return ms;
  };
  const kinds = [
    { label: 'bare sandbox start of /bin/true', samples: [] as number[], run: bareStart },
    { label: 'Bash `true` (tool call)', samples: [] as number[], run: () => toolCall('Bash', { command: 'true' }, /^exit code: 0$/) },
    { label: 'Read of a 1 KB file (tool call)', samples: [] as number[], run: () => toolCall('Read', { file_path: 'one-kb.txt' }, /^ {5}1\tx{63}\n/) },
  ];

  const firstCall = await toolCall('Bash', { command: 'true' }, /^exit code: 0$/);
  // Written through the sandbox: the run's workspace is its own disk, mounted over workDir (docs/sandbox.md).
  await toolCall('Write', { file_path: 'one-kb.txt', content: `${'x'.repeat(63)}\n`.repeat(16) }, /./);
  const load = loadAverage();
  for (let round = 0; round < WARMUP + CALLS; round++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(round + k) % kinds.length]!;
      const ms = await kind.run();
      if (round >= WARMUP) kind.samples.push(ms);
    }
  }

  console.log(
    `bench:agent-tools — ${CALLS} calls each (after ${WARMUP} warm-up rounds), interleaved; sandbox limits: ${sandbox.status.limits}, network: ${sandbox.status.network}`,
  );
  console.log(`first tool call of a run (starts the driver shell): ${firstCall.toFixed(1)} ms`);
  console.log(`load average before: ${load}; after: ${loadAverage()}`);
  console.log('');
  console.log(`${'kind'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const kind of kinds) {
    const sorted = sortNumbers(kind.samples);
    console.log(`${kind.label.padEnd(36)} ${percentile(sorted, 50).toFixed(2).padStart(8)} ${percentile(sorted, 99).toFixed(2).padStart(8)}`);
  }
  const bashP50 = percentile(sortNumbers(kinds[1]!.samples), 50);
  console.log('');
  console.log(`goal: Bash tool call p50 < ${GOAL_BASH_P50_MS} ms — ${bashP50 < GOAL_BASH_P50_MS ? 'met' : 'NOT met'} (${bashP50.toFixed(2)} ms)`);
}

main()
  .then(runCleanups)
  .catch(async (err) => {
    console.error(err);
    await runCleanups();
    process.exit(1);
  });
