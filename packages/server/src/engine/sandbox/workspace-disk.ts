/**
 * A run's workspace as a disk of its own (docs/sandbox.md "Workspace disk"): a sparse ext4 image of
 * SANDBOX_DISK_MB per run, under DATA_DIR/workspace-disks/<run id>.ext4, loop-mounted `nosuid,nodev` at the
 * run's workspace (DATA_DIR/runs/<run id>) while the run executes and unmounted when it stops. A run that
 * fills it gets ENOSPC and the host's free space is untouched; the image persists across follow-ups and
 * goes with the workspace (workdir retention, `discard`).
 *
 * Loop mounts need root. Elsewhere (or when the probe fails) the mode is `rlimit`: RLIMIT_FSIZE bounds each
 * file at SANDBOX_DISK_MB, not the workspace as a whole, and /readyz says so.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensurePrivateDir } from '../../private-files';

const run = promisify(execFile);

export type DiskMode = 'loop ext4' | 'rlimit' | 'none';

/** Who owns the workspace on the host: the unprivileged uid sandboxed processes run as. */
export interface HostOwner {
  uid: number;
  gid: number;
}

/** One run's mounted workspace disk. */
export interface MountedDisk {
  /** True once the run has (nearly) no space left: it wrote past SANDBOX_DISK_MB. */
  full(): boolean;
  unmount(): Promise<void>;
}

export interface WorkspaceDisks {
  readonly mode: DiskMode;
  /** Mounts the run's image at workDir (creating the image on first use); undefined in `rlimit` mode. */
  mount(runId: string, workDir: string): Promise<MountedDisk | undefined>;
  /** Unmounts (if still mounted) and deletes the run's image: the workspace is being removed. */
  discard(runId: string, workDir: string): Promise<void>;
}

/** Below this much free space the disk counts as full (ext4 keeps no root reserve here: `-m 0`). */
const FULL_BELOW_BYTES = 1024 * 1024;
const MOUNT_OPTIONS = 'loop,nosuid,nodev,noatime,discard';

/**
 * Loop-mounted ext4 images when this process is root and the tools are there (one probe mount at start),
 * else `rlimit` with the reason in `problems`.
 */
export function detectWorkspaceDisks(dataDir: string, diskBytes: number, owner: HostOwner | undefined, problems: string[]): WorkspaceDisks {
  if (diskBytes === 0) return { mode: 'none', mount: async () => undefined, discard: async () => {} };
  const imageDir = path.join(dataDir, 'workspace-disks');
  const why = loopUnavailableReason(imageDir, owner);
  if (why) {
    problems.push(`workspace disk quota is per file only (RLIMIT_FSIZE): ${why}`);
    return { mode: 'rlimit', mount: async () => undefined, discard: async () => {} };
  }
  const imageOf = (runId: string) => path.join(imageDir, `${runId}.ext4`);
  return {
    mode: 'loop ext4',
    async mount(runId, workDir) {
      const image = imageOf(runId);
      ensurePrivateDir(workDir);
      await unmountIfMounted(workDir); // left mounted by a server that died
      const created = !fs.existsSync(image);
      if (created) await makeImage(image, diskBytes, owner!);
      await run('mount', ['-t', 'ext4', '-o', MOUNT_OPTIONS, image, workDir]);
      if (created) fs.rmdirSync(path.join(workDir, 'lost+found'));
      fs.chownSync(workDir, owner!.uid, owner!.gid);
      fs.chmodSync(workDir, 0o700);
      return {
        full: () => {
          const stats = fs.statfsSync(workDir);
          return stats.bavail * stats.bsize < FULL_BELOW_BYTES;
        },
        unmount: () => unmountIfMounted(workDir),
      };
    },
    async discard(runId, workDir) {
      await unmountIfMounted(workDir);
      fs.rmSync(imageOf(runId), { force: true });
    },
  };
}

/**
 * Whether this host can loop-mount an image, by the uid that owns them: probed once per process (a mkfs and
 * a mount; loop devices do not come and go while it runs, and test processes start many servers).
 */
const loopProbes = new Map<string, string | undefined>();

function loopUnavailableReason(imageDir: string, owner: HostOwner | undefined): string | undefined {
  if (!owner) return 'loop-mounted workspace images need the server to run as root';
  const key = `${owner.uid}:${owner.gid}`;
  if (!loopProbes.has(key)) loopProbes.set(key, probeLoopMount(imageDir, owner));
  return loopProbes.get(key);
}

function probeLoopMount(imageDir: string, owner: HostOwner): string | undefined {
  if (!fs.existsSync('/dev/loop-control')) return 'no loop devices (/dev/loop-control) on this host';
  const probeDir = path.join(imageDir, 'probe');
  const image = `${probeDir}.ext4`;
  try {
    ensurePrivateDir(probeDir);
    fs.rmSync(image, { force: true });
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
    execFileSync('mkfs.ext4', mkfsArguments(image, owner), { stdio: 'pipe' });
    execFileSync('mount', ['-t', 'ext4', '-o', MOUNT_OPTIONS, image, probeDir], { stdio: 'pipe' });
    execFileSync('umount', [probeDir], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString('utf8').trim();
    return (stderr || (err as Error).message).slice(0, 300);
  } finally {
    fs.rmSync(image, { force: true });
    fs.rmSync(probeDir, { recursive: true, force: true });
  }
}

async function makeImage(image: string, bytes: number, owner: HostOwner): Promise<void> {
  ensurePrivateDir(path.dirname(image));
  const partial = `${image}.partial`;
  fs.writeFileSync(partial, '', { mode: 0o600 });
  fs.truncateSync(partial, bytes); // sparse: costs the host only what the run writes
  await run('mkfs.ext4', mkfsArguments(partial, owner));
  fs.renameSync(partial, image); // a crash mid-mkfs leaves no half-made image to mount
}

/** No root reserve (the run is never root), lazy initialisation (a few ms even for GiBs), the root dir the run's. */
const mkfsArguments = (image: string, owner: HostOwner) => [
  '-q',
  '-F',
  '-m',
  '0',
  '-E',
  `root_owner=${owner.uid}:${owner.gid},lazy_itable_init=1,lazy_journal_init=1`,
  image,
];

async function unmountIfMounted(dir: string): Promise<void> {
  if (!isMountPoint(dir)) return;
  // Busy (the server still reading a file of it): detached now, released by the kernel once let go. Either
  // may fail because another step (a run's end, retention) unmounted it first: then it is done.
  await run('umount', [dir]).catch(async () => {
    if (!isMountPoint(dir)) return;
    await run('umount', ['--lazy', dir]).catch((err: unknown) => {
      if (isMountPoint(dir)) throw err;
    });
  });
}

/** Whether something is mounted at `dir` (a run's workspace disk, say). */
export function isMountPoint(dir: string): boolean {
  const target = fs.existsSync(dir) ? fs.realpathSync(dir) : dir;
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === target.replace(/ /g, '\\040'));
}
