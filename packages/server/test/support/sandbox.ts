/**
 * Which SANDBOX the tests run with: `bwrap` wherever bubblewrap works (CI installs it and must have it),
 * else `none`, so `pnpm test` still runs on a machine without it — minus the suites that prove the
 * isolation itself, which skip there and say so.
 */
import { spawnSync } from 'node:child_process';

function bubblewrapWorks(): boolean {
  const probe = spawnSync('bwrap', ['--unshare-all', '--unshare-user', '--disable-userns', '--ro-bind', '/', '/', '--', '/bin/true'], { stdio: 'ignore' });
  return probe.status === 0;
}

export const sandboxAvailable = bubblewrapWorks();
if (!sandboxAvailable && process.env.CI) throw new Error('bubblewrap does not work on this CI machine (.ci/run installs the package `bubblewrap`)');
if (!sandboxAvailable) console.log('bubblewrap is not installed: run processes are tested with SANDBOX=none and the sandbox suites are skipped');

export const testSandboxMode: 'bwrap' | 'none' = sandboxAvailable ? 'bwrap' : 'none';
