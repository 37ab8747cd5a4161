/**
 * The harnesses this server knows (one adapter per CLI) and where each one's CLI comes from
 * (docs/decisions.md §Third-party harnesses):
 *
 * 1. the run's image, when its PATH holds the CLI's command (`codex`, `claude`, …): the image's own
 *    version, whatever it is;
 * 2. else the server's install of the pinned npm package under HARNESSES_DIR (`pnpm harnesses:install`),
 *    `<HARNESSES_DIR>/<type>/<version>/`, bound read-only into the sandbox at HARNESS_MOUNT/<type>;
 * 3. else the harness is unavailable: a run never downloads one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isHarnessType, type HarnessAdapter, type HarnessType } from './adapter';
import { claudeAdapter } from './claude';
import { codexAdapter } from './codex';
import { geminiAdapter } from './gemini';
import { opencodeAdapter } from './opencode';

/** The adapters, by `config.harness.type`. */
export const HARNESS_ADAPTERS: Partial<Record<HarnessType, HarnessAdapter>> = {
  codex: codexAdapter,
  claude: claudeAdapter,
  gemini: geminiAdapter,
  opencode: opencodeAdapter,
};

/** Where a server install appears inside the sandbox (under /run, which the sandbox owns even in an image). */
export const HARNESS_MOUNT = '/run/agent-runs/harnesses';

/** The npm prefix of a harness's pinned install. */
export const harnessInstallDir = (harnessesDir: string, adapter: Pick<HarnessAdapter, 'type' | 'version'>): string =>
  path.join(harnessesDir, adapter.type, adapter.version);

/** The host path of the server's install's executable, when it is installed for this machine. */
export const installedExecutable = (harnessesDir: string, adapter: HarnessAdapter): string | undefined =>
  executableIn(harnessInstallDir(harnessesDir, adapter), adapter);

/** The adapter's executable under an npm prefix, when it is there and executable. */
export function executableIn(prefix: string, adapter: HarnessAdapter): string | undefined {
  const relative = adapter.executable(process.arch);
  if (!relative) return undefined;
  const file = path.join(prefix, relative);
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

/** How one execution starts the CLI: the executable as the sandbox sees it, and the bind it needs. */
export interface LocatedHarness {
  executable: string;
  binds: Array<{ hostPath: string; sandboxPath: string; readOnly: true }>;
  /** `image` (its PATH) or `server` (HARNESSES_DIR). */
  source: 'image' | 'server';
}

/** The command `bin` on the image's PATH, as a path inside the image; symlinks count (resolved inside). */
function onImagePath(image: { rootfs: string; env: Record<string, string> }, bin: string): string | undefined {
  for (const dir of (image.env.PATH ?? '').split(':')) {
    if (!dir.startsWith('/')) continue;
    const inside = path.posix.join(dir, bin);
    try {
      const stat = fs.lstatSync(path.join(image.rootfs, inside));
      if (stat.isSymbolicLink() || (stat.isFile() && (stat.mode & 0o111) !== 0)) return inside;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Where this execution's CLI comes from. `isolated`: the sandbox has its own root (bubblewrap); with
 * SANDBOX=none the process sees the host, so the install's host path is the path.
 */
export function locateHarness(
  harnessesDir: string,
  adapter: HarnessAdapter,
  image: { rootfs: string; env: Record<string, string> } | undefined,
  isolated: boolean,
): LocatedHarness | undefined {
  const fromImage = image ? onImagePath(image, adapter.bin) : undefined;
  if (fromImage) return { executable: fromImage, binds: [], source: 'image' };
  const installed = installedExecutable(harnessesDir, adapter);
  if (!installed) return undefined;
  if (!isolated) return { executable: installed, binds: [], source: 'server' };
  const prefix = harnessInstallDir(harnessesDir, adapter);
  const mount = `${HARNESS_MOUNT}/${adapter.type}`;
  return {
    executable: path.posix.join(mount, path.relative(prefix, installed).split(path.sep).join('/')),
    binds: [{ hostPath: prefix, sandboxPath: mount, readOnly: true }],
    source: 'server',
  };
}

/** One harness as the API lists it (GET /agent/harnesses). */
export interface HarnessOffer {
  type: HarnessType;
  name: string;
  npm_package: string;
  version: string;
  command: string;
  installed: boolean;
}

export function harnessOffers(harnessesDir: string): HarnessOffer[] {
  return Object.values(HARNESS_ADAPTERS).map((adapter) => ({
    type: adapter.type,
    name: adapter.displayName,
    npm_package: adapter.npmPackage,
    version: adapter.version,
    command: adapter.bin,
    installed: installedExecutable(harnessesDir, adapter) !== undefined,
  }));
}

/**
 * Why a run cannot have `type` as its harness, or undefined when it can: a type this server has no
 * adapter for, or one it has not installed — unless the run's environment has an image, which may hold
 * the CLI on its PATH (the run then fails `harness_unavailable` at start when it does not).
 */
export function harnessRefusal(harnessesDir: string, type: string, hasImage: boolean): string | undefined {
  const adapter = isHarnessType(type) ? HARNESS_ADAPTERS[type] : undefined;
  const offered = Object.keys(HARNESS_ADAPTERS).join(', ');
  if (!adapter) return `config.harness.type ${type} is not a harness this server offers (oz, ${offered}; GET /agent/harnesses).`;
  if (hasImage || installedExecutable(harnessesDir, adapter)) return undefined;
  return `config.harness.type ${type}: ${adapter.displayName} is not installed on this server (the operator runs pnpm harnesses:install ${type}), and the run's environment has no docker_image that could provide \`${adapter.bin}\` (GET /agent/harnesses).`;
}
