/**
 * `pnpm harnesses:install [type…]`: the operator's one command that installs the pinned npm package of
 * each harness CLI under HARNESSES_DIR (`<dir>/<type>/<version>`; catalog.ts). npm fetches it once, here,
 * from the operator's registry; a run never downloads one. Install scripts do not run: the runner starts
 * the package's native executable directly.
 *
 * Each install goes to a scratch directory beside its target and is renamed into place when complete,
 * so a half-finished install is never taken for one, and concurrent installers (test files) do not clash.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runHostCommand } from '../sandbox/host-command';
import { HARNESS_TYPES, isHarnessType, type HarnessAdapter, type HarnessType } from './adapter';
import { executableIn, HARNESS_ADAPTERS, harnessInstallDir, installedExecutable } from './catalog';

export interface InstallResult {
  type: HarnessType;
  package: string;
  version: string;
  directory: string;
  /** `installed` now, or `present` already. */
  status: 'installed' | 'present';
}

export class HarnessInstallError extends Error {}

/** The adapters named (all this server has when none is), or an error naming the unknown ones. */
export function adaptersNamed(types: string[]): HarnessAdapter[] {
  const offered = Object.values(HARNESS_ADAPTERS);
  if (types.length === 0) return offered;
  const unknown = types.filter((t) => !isHarnessType(t) || !HARNESS_ADAPTERS[t]);
  if (unknown.length > 0)
    throw new HarnessInstallError(
      `unknown harness ${unknown.join(', ')}: this server offers ${offered.map((a) => a.type).join(', ')} (of ${HARNESS_TYPES.join(', ')})`,
    );
  return types.map((t) => HARNESS_ADAPTERS[t as HarnessType]!);
}

/** npm itself installs the package: the operator's command, so npm gets the operator's environment (registry, proxy, cache). */
async function npmInstall(npm: string, prefix: string, spec: string): Promise<void> {
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', '--loglevel=error', spec];
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const result = await runHostCommand(npm, args, { env, cwd: process.cwd() }).catch((err: unknown) => {
    throw new HarnessInstallError(`${npm} could not start: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (result.code !== 0) throw new HarnessInstallError(`npm install ${spec} failed (exit ${result.code}): ${result.stderr.trim().slice(-2000)}`);
}

export async function installHarness(harnessesDir: string, adapter: HarnessAdapter, npm = 'npm'): Promise<InstallResult> {
  const directory = harnessInstallDir(harnessesDir, adapter);
  const result = { type: adapter.type, package: adapter.npmPackage, version: adapter.version, directory };
  if (installedExecutable(harnessesDir, adapter)) return { ...result, status: 'present' };
  if (!adapter.executable(process.arch)) throw new HarnessInstallError(`${adapter.npmPackage} has no native executable for ${process.arch}`);
  fs.mkdirSync(path.dirname(directory), { recursive: true, mode: 0o755 });
  const scratch = `${directory}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await npmInstall(npm, scratch, `${adapter.npmPackage}@${adapter.version}`);
    if (!executableIn(scratch, adapter)) {
      throw new HarnessInstallError(
        `npm installed ${adapter.npmPackage}@${adapter.version} without its ${process.arch} executable ${adapter.executable(process.arch)}`,
      );
    }
    // The sandbox's host uid reads and runs it (docs/sandbox.md): world-readable, like any system package.
    fs.chmodSync(scratch, 0o755);
    fs.rmSync(directory, { recursive: true, force: true });
    try {
      fs.renameSync(scratch, directory);
    } catch (err) {
      // Another installer finished first: its install is as good as this one.
      if (!installedExecutable(harnessesDir, adapter)) throw err;
    }
    return { ...result, status: 'installed' };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
