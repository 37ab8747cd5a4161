/**
 * What an unpacked image may not keep (docs/sandbox.md §Image root). umoci already keeps every entry
 * inside the rootfs (`../` names, symlinks and hard links resolved in it, whiteouts applied in it) and,
 * unpacking rootless, turns device nodes into empty files; this pass then removes what is neither a
 * file, a directory nor a symlink (FIFOs, sockets, any device node left) and strips setuid, setgid and
 * sticky bits, and makes the tree readable to the sandbox's user. Symlinks are never followed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface HygieneReport {
  removed: number;
  stripped: number;
  /** Bytes of regular files kept (the cache entry's size for eviction). */
  bytes: number;
}

const SPECIAL_BITS = 0o7000;

export async function enforceRootfsHygiene(rootfs: string): Promise<HygieneReport> {
  const report: HygieneReport = { removed: 0, stripped: 0, bytes: 0 };
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (!entry.isFile() && !entry.isDirectory()) {
        await fs.rm(file, { force: true });
        report.removed += 1;
        continue;
      }
      const stat = await fs.lstat(file);
      // Owner-readable at least, and the directories traversable: the sandbox's user reads the image.
      let mode = stat.mode & 0o777;
      if (stat.mode & SPECIAL_BITS) report.stripped += 1;
      mode |= entry.isDirectory() ? 0o755 : 0o444;
      if ((stat.mode & 0o7777) !== mode) await fs.chmod(file, mode);
      if (entry.isDirectory()) await walk(file);
      else report.bytes += stat.size;
    }
  };
  await walk(rootfs);
  await fs.chmod(rootfs, 0o755);
  return report;
}
