/**
 * The fence around one execution of a run (docs/sandbox.md "Limits"): one cgroup that every process the run
 * causes joins (the agent command, setup commands, stdio MCP servers, whatever they start), so
 * SANDBOX_MEMORY_MB and SANDBOX_MAX_PROCESSES hold for the run as a whole; and the run's workspace disk
 * (workspace-disk.ts), so SANDBOX_DISK_MB does too. Made in `forRun`, taken down at `close`.
 */
import fs from 'node:fs';
import type { SandboxSettings } from '../../settings';
import type { CgroupManager, SandboxCgroup } from './cgroups';
import type { SandboxViolation } from './supervised-process';
import type { HostOwner, MountedDisk, WorkspaceDisks } from './workspace-disk';

export interface RunFence {
  /** `cgroup.procs` files a process of the run joins before bubblewrap starts (none without a cgroup). */
  readonly procsFiles: string[];
  /** Mounts the workspace disk and hands the workspace to the sandbox's host uid; once per execution. */
  openWorkspace(): Promise<void>;
  /** The limit the run as a whole has gone past, if any. */
  violation(): SandboxViolation | undefined;
  /** Kills whatever is in the cgroup now; the cgroup stays. */
  killAll(): void;
  /** Kills whatever is left in the cgroup, removes it, unmounts the workspace. */
  close(): Promise<void>;
}

export interface FenceTools {
  cgroups: CgroupManager | undefined;
  disks: WorkspaceDisks;
  owner: HostOwner | undefined;
  /** Directories on the way to the workspace that the host uid must be able to pass through. */
  traversed: string[];
}

export const NO_FENCE: RunFence = {
  procsFiles: [],
  openWorkspace: async () => {},
  violation: () => undefined,
  killAll: () => {},
  close: async () => {},
};

const MIB = 1024 * 1024;

export function openRunFence(id: string, runId: string, workDir: string, config: SandboxSettings, tools: FenceTools): RunFence {
  const cgroup = createCgroup(tools.cgroups, id, config);
  let disk: MountedDisk | undefined;
  let opened: Promise<void> | undefined;
  return {
    procsFiles: cgroup?.procsFiles ?? [],
    openWorkspace() {
      opened ??= (async () => {
        disk = await tools.disks.mount(runId, workDir);
        if (!disk && tools.owner) {
          fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
          fs.chownSync(workDir, tools.owner.uid, tools.owner.gid);
        }
        letHostUidThrough(tools); // after the mount: it may have created DATA_DIR/runs
      })();
      return opened;
    },
    violation() {
      const hit = cgroup?.limitHit();
      if (hit === 'memory_limit') {
        return { error_code: hit, message: `stopped: the run's processes together used more than its ${config.memoryBytes / MIB} MiB of memory` };
      }
      if (hit === 'process_limit') {
        return { error_code: hit, message: `stopped: the run started more than its ${config.maxProcesses} processes at once` };
      }
      if (disk?.full()) return diskLimitViolation(config);
      return undefined;
    },
    killAll() {
      for (const pid of cgroup?.pids() ?? []) signalKill(pid);
    },
    async close() {
      this.killAll();
      await cgroup?.remove();
      await opened?.catch(() => {});
      await disk?.unmount();
      disk = undefined;
    },
  };
}

export const diskLimitViolation = (config: SandboxSettings): SandboxViolation => ({
  error_code: 'disk_limit',
  message: `stopped: the run wrote more than its ${config.diskBytes / MIB} MiB workspace disk holds`,
});

/** A cgroup for the run; undefined (rlimits only) when the host refuses it. */
function createCgroup(cgroups: CgroupManager | undefined, id: string, config: SandboxSettings): SandboxCgroup | undefined {
  try {
    return cgroups?.create(id, { memoryBytes: config.memoryBytes, maxProcesses: config.maxProcesses });
  } catch {
    return undefined;
  }
}

function signalKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Search permission only (0711) on the directories between `/` and the workspace: bubblewrap, started as
 * the host uid, reaches what it binds by path, and reads nothing on the way (DATA_DIR's files stay 0600).
 */
export function letHostUidThrough(tools: FenceTools): void {
  for (const dir of tools.traversed) if (fs.existsSync(dir)) fs.chmodSync(dir, 0o711);
}
