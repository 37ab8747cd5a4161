/**
 * One process a run started, and everything it starts in turn, watched from the server:
 *
 *   launch (the run's cgroup → host uid → bubblewrap → rlimits → the command) → watch (wall time, output
 *   bytes, the run's limits, egress denials) → stop (terminate: SIGTERM, SIGKILL after a grace; a limit:
 *   SIGKILL at once) → exit (code, signal, and the limit that ended it) → clean up (egress proxy)
 *
 * With the start-up probe in sandbox.ts, the only place in the server that starts processes (docs/sandbox.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';

export type SandboxLimitCode = 'run_timeout' | 'memory_limit' | 'process_limit' | 'disk_limit' | 'cpu_time_limit' | 'output_limit' | 'egress_denied';

/** Why the sandbox ended a process (and so the run): the run FAILS with exactly this. */
export interface SandboxViolation {
  error_code: SandboxLimitCode;
  message: string;
}

export interface SandboxExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  startError?: string;
  /** Set when a limit or the egress policy ended it. */
  violation?: SandboxViolation;
}

export interface SandboxedProcess {
  readonly pid: number | undefined;
  /** Present when started with `stdin: 'pipe'`. */
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Settles once everything it started is gone and its output is closed; never rejects. */
  readonly exited: Promise<SandboxExit>;
  /** Stops the whole tree: SIGTERM now, SIGKILL after KILL_GRACE_MS (cancel, shutdown). */
  terminate(): void;
  /** Ends it at once because of a violation; the first one is what `exited` reports. */
  violate(violation: SandboxViolation): void;
}

export const KILL_GRACE_MS = 2000;
/** After the main process exits, how long its pipes may stay open (held by background children) before the tree is killed. */
const CLOSE_GRACE_MS = 500;
const LIMIT_POLL_MS = 100;
/** Exit status of a process killed by SIGXCPU (RLIMIT_CPU), as bubblewrap's init reports it. */
const SIGXCPU_STATUS = 128 + 24;
/** … and by SIGXFSZ (RLIMIT_FSIZE, the disk quota where no workspace disk can be mounted). */
const SIGXFSZ_STATUS = 128 + 25;

export interface LaunchSpec {
  file: string;
  args: string[];
  /** Environment of the launched binary itself (bubblewrap gets only PATH; SANDBOX=none: the run's). */
  env: Record<string, string>;
  cwd: string;
  stdin: 'pipe' | 'ignore';
  wallTimeMs: number;
  /** Output bytes (stdout + stderr) after which the process is stopped; undefined = unlimited. */
  outputLimitBytes: number | undefined;
  /** The limits of the run as a whole (its cgroup, its workspace disk), polled while it runs. */
  runLimits: { violation(): SandboxViolation | undefined } | undefined;
  /** What a death by SIGXFSZ means (RLIMIT_FSIZE was set); undefined when no file-size limit applies. */
  fileSizeViolation: SandboxViolation | undefined;
  /** The PID namespace kills everything when the main process ends; without it (SANDBOX=none) the process group is signalled. */
  isolated: boolean;
  /** Runs once after exit (egress proxy). */
  cleanup: () => Promise<void>;
  /**
   * Arguments the launched program reads from its fd 3, NUL-terminated (bubblewrap's `--args 3`): never in
   * an argv, where the host's /proc and the sandbox's process 1 would show them.
   */
  fd3Arguments?: string[];
}

export function launchSupervised(spec: LaunchSpec): SandboxedProcess {
  const child = spawn(spec.file, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.stdin, 'pipe', 'pipe', ...(spec.fd3Arguments ? (['pipe'] as const) : [])],
    detached: true, // its own process group (SANDBOX=none signals the group)
  });
  const fd3 = child.stdio[3] as Writable | null | undefined;
  if (fd3 && spec.fd3Arguments) {
    fd3.on('error', () => {}); // it died before reading: `exited` reports that
    // Closed once written: nothing the sandbox keeps open may hold the process's pipes (its 'close') open.
    fd3.end(Buffer.from(spec.fd3Arguments.map((arg) => `${arg}\0`).join('')), () => fd3.destroy());
  }
  return new Supervised(child, spec);
}

class Supervised implements SandboxedProcess {
  readonly exited: Promise<SandboxExit>;
  #violation: SandboxViolation | undefined;
  #exited = false;
  #killTimer: NodeJS.Timeout | undefined;
  #outputBytes = 0;

  constructor(
    private readonly child: ChildProcess,
    private readonly spec: LaunchSpec,
  ) {
    this.exited = this.#watch();
  }

  get pid() {
    return this.child.pid;
  }
  get stdin() {
    return this.child.stdin;
  }
  get stdout() {
    return this.child.stdout!;
  }
  get stderr() {
    return this.child.stderr!;
  }

  terminate(): void {
    if (this.#exited) return;
    this.#signalTree('SIGTERM');
    this.#killTimer ??= setTimeout(() => this.#signalTree('SIGKILL'), KILL_GRACE_MS);
    this.#killTimer.unref();
  }

  violate(violation: SandboxViolation): void {
    if (this.#exited || this.#violation) return;
    this.#violation = violation;
    // Whatever it writes from now on is not recorded.
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.#signalTree('SIGKILL');
  }

  async #watch(): Promise<SandboxExit> {
    const { child, spec } = this;
    const started = new Promise<string | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (err) => resolve(err.message));
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const startError = await started;
    if (startError !== undefined) {
      this.#exited = true;
      await spec.cleanup();
      return { code: null, signal: null, startError };
    }

    const wallTimer = setTimeout(
      () => this.violate({ error_code: 'run_timeout', message: `stopped after the wall-time limit of ${Math.round(spec.wallTimeMs / 1000)} s` }),
      spec.wallTimeMs,
    );
    const countOutput = (chunk: Buffer) => {
      this.#outputBytes += chunk.length;
      if (spec.outputLimitBytes !== undefined && this.#outputBytes > spec.outputLimitBytes) {
        this.violate({ error_code: 'output_limit', message: `stopped after writing more than ${spec.outputLimitBytes} bytes of output` });
      }
    };
    child.stdout?.on('data', countOutput);
    child.stderr?.on('data', countOutput);
    const checkRunLimits = () => {
      const violation = spec.runLimits?.violation();
      if (violation) this.violate(violation);
    };
    const limitPoll = spec.runLimits ? setInterval(checkRunLimits, LIMIT_POLL_MS) : undefined;

    const { code, signal } = await exit;
    if (!(await settlesWithin(closed, CLOSE_GRACE_MS))) {
      this.#signalTree('SIGKILL'); // background processes still hold the pipes
      await closed;
    }
    checkRunLimits(); // a limit hit just before the end still names itself
    this.#exited = true;
    clearTimeout(wallTimer);
    clearInterval(limitPoll);
    if (this.#killTimer) clearTimeout(this.#killTimer);
    if (!this.#violation && spec.isolated && (code === SIGXCPU_STATUS || signal === 'SIGXCPU')) {
      this.#violation = { error_code: 'cpu_time_limit', message: 'stopped after the CPU-time limit' };
    }
    if (!this.#violation && spec.fileSizeViolation && (code === SIGXFSZ_STATUS || signal === 'SIGXFSZ')) this.#violation = spec.fileSizeViolation;
    if (!spec.isolated) signalGroup(child.pid, 'SIGKILL'); // leave nothing behind
    await spec.cleanup();
    return { code, signal, ...(this.#violation ? { violation: this.#violation } : {}) };
  }

  #signalTree(sig: NodeJS.Signals): void {
    const root = this.child.pid;
    if (root === undefined) return;
    if (!this.spec.isolated) {
      signalGroup(root, sig);
      return;
    }
    // Inside its own PID namespace the command has its own session; reach every process directly. (Not
    // through the cgroup: that is the run's, shared with its other processes.)
    for (const pid of descendants(root)) signal(pid, sig);
    if (sig === 'SIGKILL') signal(root, sig); // bubblewrap gone → --die-with-parent ends the namespace
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone
  }
}

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid !== undefined) signal(-pid, sig);
}

/** Every descendant of `pid` (through /proc/<pid>/task/<tid>/children). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of fs.readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
          found.push(Number(child));
          queue.push(Number(child));
        }
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return found;
}

const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
