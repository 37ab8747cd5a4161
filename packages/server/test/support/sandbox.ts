/**
 * Which SANDBOX the tests run with: `bwrap` wherever bubblewrap works (CI installs it and must have it),
 * else `none`, so `pnpm test` still runs on a machine without it — minus the suites that prove the
 * isolation itself, which skip there and say so.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServerContext } from '../../src/context';
import { isMountPoint } from '../../src/engine/sandbox/workspace-disk';
import { runWorkDir } from '../../src/engine/worker';

function bubblewrapWorks(): boolean {
  const probe = spawnSync('bwrap', ['--unshare-all', '--unshare-user', '--disable-userns', '--ro-bind', '/', '/', '--', '/bin/true'], { stdio: 'ignore' });
  return probe.status === 0;
}

export const sandboxAvailable = bubblewrapWorks();
if (!sandboxAvailable && process.env.CI) throw new Error('bubblewrap does not work on this CI machine (.ci/run installs the package `bubblewrap`)');
if (!sandboxAvailable) console.log('bubblewrap is not installed: run processes are tested with SANDBOX=none and the sandbox suites are skipped');

export const testSandboxMode: 'bwrap' | 'none' = sandboxAvailable ? 'bwrap' : 'none';

/**
 * Calls `use` with a run's workspace as its next execution would find it: the workspace disk is mounted
 * only while the run executes (engine/sandbox/workspace-disk.ts), so a test that looks at a finished
 * run's files mounts it the same way, once the last execution has let go of it.
 */
export async function withRunWorkspace<T>(ctx: Pick<ServerContext, 'sandbox' | 'settings'>, runId: string, use: (dir: string) => T): Promise<T> {
  const dir = runWorkDir(ctx, runId);
  while (isMountPoint(dir)) await delay(20);
  const workspace = ctx.sandbox.forRun(runId, dir);
  try {
    await workspace.openWorkspace();
    return use(dir);
  } finally {
    await workspace.close();
  }
}
