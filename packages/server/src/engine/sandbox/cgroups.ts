/**
 * Memory and process limits of a whole run, through a cgroup of its own that every process of the run
 * joins (run-fence.ts, docs/sandbox.md).
 *
 * rlimits cannot do this: they are per process (RLIMIT_AS, and it breaks programs that reserve address
 * space) or per user (RLIMIT_NPROC, not enforced at all when the server runs as root without a host uid).
 * A cgroup counts all of a run's processes and says afterwards which limit it hit.
 *
 * Both layouts are supported: cgroup v2 (the server's own cgroup must allow `pids` and `memory` in its
 * subtree; systemd `Delegate=yes` does) and v1 (the `pids` and `memory` hierarchies). Where neither is
 * writable, `detectCgroups` answers undefined and the sandbox falls back to rlimits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const ROOT = '/sys/fs/cgroup';

export interface CgroupLimits {
  memoryBytes: number;
  maxProcesses: number;
}

export type CgroupLimitHit = 'memory_limit' | 'process_limit';

/** One run's cgroup(s). */
export interface SandboxCgroup {
  /** `cgroup.procs` files the launcher writes its pid into before it execs bubblewrap. */
  readonly procsFiles: string[];
  /** Which limit the tree has hit so far, if any. */
  limitHit(): CgroupLimitHit | undefined;
  /** Host pids of every process in it. */
  pids(): number[];
  /** Removes the cgroup once its processes are gone (retries briefly while the kernel reaps them). */
  remove(): Promise<void>;
}

export interface CgroupManager {
  readonly version: 1 | 2;
  create(name: string, limits: CgroupLimits): SandboxCgroup;
  /** Removes this process's parent cgroups if nothing runs in them any more (at shutdown; again at exit). */
  removeParents(): void;
}

/** The cgroup layout this process may create sandbox cgroups in, or undefined. */
export function detectCgroups(parentName: string): CgroupManager | undefined {
  try {
    return detectV2(parentName) ?? detectV1(parentName);
  } catch {
    return undefined;
  }
}

/** Parent cgroups this process made; removed when it exits, so a host does not collect one per server start. */
const parents = new Set<string>();
function ownParent(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  if (parents.size === 0) process.once('exit', removeParentsNow);
  parents.add(dir);
}

function removeParentsNow(): void {
  for (const dir of parents) removeEmptyTree(dir);
}

/** A process killed before it could tidy up (SIGKILL, a test worker) leaves its parent behind: the next one removes it. */
function removeParentsOfDeadProcesses(under: string): void {
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(under);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = /^agent-runs-(\d+)$/.exec(entry)?.[1];
    if (pid !== undefined && !processExists(Number(pid))) removeEmptyTree(path.join(under, entry));
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** rmdir of a cgroup and its child cgroups; one that still holds a process stays. */
function removeEmptyTree(dir: string): void {
  try {
    for (const child of fs.readdirSync(dir, { withFileTypes: true })) if (child.isDirectory()) fs.rmdirSync(path.join(dir, child.name));
    fs.rmdirSync(dir);
  } catch {
    // still in use, or already gone: nothing to leave tidier
  }
}

function ownCgroupPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, where] = line.split(':');
    if (controllers === undefined || where === undefined) continue;
    for (const controller of controllers.split(',')) paths.set(controller, where);
  }
  return paths;
}

function detectV2(parentName: string): CgroupManager | undefined {
  if (!fs.existsSync(path.join(ROOT, 'cgroup.controllers'))) return undefined;
  const own = path.join(ROOT, ownCgroupPaths().get('') ?? '/');
  const enabled = fs.readFileSync(path.join(own, 'cgroup.subtree_control'), 'utf8');
  if (!/\bpids\b/.test(enabled) || !/\bmemory\b/.test(enabled)) {
    fs.writeFileSync(path.join(own, 'cgroup.subtree_control'), '+pids +memory');
  }
  const parent = path.join(own, parentName);
  removeParentsOfDeadProcesses(own);
  ownParent(parent);
  fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+pids +memory');
  return {
    version: 2,
    removeParents: removeParentsNow,
    create(name, limits) {
      if (!fs.existsSync(parent)) {
        ownParent(parent); // another server of this process removed it at its shutdown
        fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+pids +memory');
      }
      const dir = path.join(parent, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pids.max'), String(limits.maxProcesses));
      fs.writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      fs.writeFileSync(path.join(dir, 'memory.swap.max'), '0');
      return {
        procsFiles: [path.join(dir, 'cgroup.procs')],
        limitHit: () => limitHitIn(path.join(dir, 'memory.events'), path.join(dir, 'pids.events')),
        pids: () => readPids(path.join(dir, 'cgroup.procs')),
        remove: () => removeDirs([dir]),
      };
    },
  };
}

function detectV1(parentName: string): CgroupManager | undefined {
  const own = ownCgroupPaths();
  const pidsParent = path.join(ROOT, 'pids', own.get('pids') ?? '/', parentName);
  const memoryParent = path.join(ROOT, 'memory', own.get('memory') ?? '/', parentName);
  if (!fs.existsSync(path.join(ROOT, 'pids', 'cgroup.procs')) || !fs.existsSync(path.join(ROOT, 'memory', 'cgroup.procs'))) return undefined;
  removeParentsOfDeadProcesses(path.dirname(pidsParent));
  removeParentsOfDeadProcesses(path.dirname(memoryParent));
  ownParent(pidsParent);
  ownParent(memoryParent);
  return {
    version: 1,
    removeParents: removeParentsNow,
    create(name, limits) {
      // Another server of this process may have removed the parents at its shutdown.
      ownParent(pidsParent);
      ownParent(memoryParent);
      const pidsDir = path.join(pidsParent, name);
      const memoryDir = path.join(memoryParent, name);
      fs.mkdirSync(pidsDir);
      fs.mkdirSync(memoryDir);
      fs.writeFileSync(path.join(pidsDir, 'pids.max'), String(limits.maxProcesses));
      fs.writeFileSync(path.join(memoryDir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      trySetting(path.join(memoryDir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      return {
        procsFiles: [path.join(pidsDir, 'cgroup.procs'), path.join(memoryDir, 'cgroup.procs')],
        limitHit: () => limitHitIn(path.join(memoryDir, 'memory.oom_control'), path.join(pidsDir, 'pids.events')),
        pids: () => readPids(path.join(pidsDir, 'cgroup.procs')),
        remove: () => removeDirs([pidsDir, memoryDir]),
      };
    },
  };
}

/** Memory first: an OOM-killed tree often fails to fork on its way down too. */
function limitHitIn(oomFile: string, pidsEventsFile: string): CgroupLimitHit | undefined {
  if (eventCount(oomFile, 'oom_kill') > 0) return 'memory_limit';
  if (eventCount(pidsEventsFile, 'max') > 0) return 'process_limit';
  return undefined;
}

/** `key N` from a flat keyed cgroup file (memory.events, pids.events, memory.oom_control). */
function eventCount(file: string, key: string): number {
  try {
    const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(fs.readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function readPids(file: string): number[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function trySetting(file: string, value: string): void {
  try {
    fs.writeFileSync(file, value);
  } catch {
    // swap accounting is off on this kernel: the memory limit alone applies
  }
}

async function removeDirs(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    // EBUSY: the kernel has not finished reaping the tree yet; it usually has within a millisecond or two.
    for (let waitMs = 1; waitMs <= 256; waitMs *= 2) {
      try {
        fs.rmdirSync(dir);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') break;
        await delay(waitMs);
      }
    }
  }
}
