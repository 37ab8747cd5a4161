/**
 * The Sandbox: every process a run causes — AGENT_COMMAND, environment setup commands, stdio MCP
 * servers, and whatever they start — is started here, and nowhere else (docs/sandbox.md).
 *
 *   const sandbox = createSandbox(settings, log);         // once per server: probes bubblewrap, socat, cgroups
 *   const runSandbox = sandbox.forRun(runId, workDir);      // once per execution of a run: its fence (cgroup, disk)
 *   await runSandbox.openWorkspace();                       // mounts the workspace disk (spawn does it too)
 *   runSandbox.useImage(image);                             // the environment's image as the root (optional)
 *   const proc = runSandbox.spawn({ argv: ['/bin/sh', '-c', cmd], env, stdin: 'pipe', ... });
 *   const exit = await proc.exited;                         // { code, signal, violation? }
 *   runSandbox.failure                                      // the first limit, denial or unavailability: the run FAILS with it
 *
 * Backends: `bwrap` (bubblewrap; the default, refused with `sandbox_unavailable` when it is missing or
 * cannot create namespaces here) and `none` (SANDBOX=none, single-tenant development: the process runs on
 * the host, still with an allow-listed environment, the wall-time and output limits).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { ensurePrivateDir } from '../../private-files';
import type { SandboxSettings, Settings } from '../../settings';
import { createEgressFetch, egressDenialOf, type EgressFetch } from '../egress/fetch';
import { createEgressPolicy, formatHostPort, type EgressPolicy } from '../egress/policy';
import { startEgressProxy } from '../egress/proxy';
import type { ModelGateway } from '../gateway/gateway';
import {
  bwrapArguments,
  bwrapOptions,
  egressProxyEnv,
  HOST_TOOLS,
  imageHelperTools,
  SANDBOX_PATH,
  withEgressBridge,
  WORKSPACE,
  writeSandboxEtc,
  type HelperTools,
} from './bwrap';
import { detectCgroups } from './cgroups';
import { diskLimitViolation, letHostUidThrough, NO_FENCE, openRunFence, type FenceTools, type RunFence } from './run-fence';
import { launchSupervised, type SandboxedProcess } from './supervised-process';
import { detectWorkspaceDisks, type DiskMode, type HostOwner } from './workspace-disk';

export type { SandboxedProcess, SandboxExit, SandboxViolation } from './supervised-process';

export interface SandboxStatus {
  /** SANDBOX: `bwrap` or `none`. */
  mode: Settings['sandbox']['mode'];
  /** False when `bwrap` is asked for but cannot run here (then runs that need a process fail). */
  available: boolean;
  network: SandboxSettings['network'];
  /** How memory and process counts are enforced: a cgroup per run, or per-process rlimits only. */
  limits: 'cgroup v1' | 'cgroup v2' | 'rlimit' | 'none';
  /** How SANDBOX_DISK_MB is enforced: a loop-mounted image per run, or RLIMIT_FSIZE per file. */
  disk: DiskMode;
  /** The host uid sandboxed processes run as (SANDBOX_HOST_UID, when the server is root); null: the server's. */
  host_uid: number | null;
  /** Why the sandbox is unavailable or degraded, for the operator (start-up warning, /readyz). */
  problems: string[];
}

/** What a run fails with when it needs a process and the sandbox cannot give it one. */
export interface SandboxFailure {
  message: string;
  error_code: string;
  retryable: boolean;
}

export class SandboxUnavailableError extends Error {
  readonly statusMessage: SandboxFailure;
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
    this.statusMessage = { message, error_code: 'sandbox_unavailable', retryable: false };
  }
}

export interface SpawnRequest {
  /** What to run; argv[0] an absolute path or a name found on the sandbox's PATH. */
  argv: string[];
  /** The run's variables (cloud environment, AGENT_RUN_*, an MCP server's own `env`), on top of the allow-list. */
  env: Record<string, string>;
  stdin: 'pipe' | 'ignore';
  wallTimeMs: number;
  /** Count stdout + stderr against SANDBOX_OUTPUT_BYTES (output the run records). */
  limitOutput: boolean;
  /**
   * Host directories bound at the given paths inside, writable unless `readOnly` (the git step's
   * server-owned git dirs, engine/repositories/git.ts; a harness CLI's install, engine/harnesses). With
   * SANDBOX=none the process sees the host, so `hostPath` itself.
   */
  binds?: Array<{ hostPath: string; sandboxPath: string; readOnly?: boolean }>;
  /**
   * `run` (default): the run's root — its image when it has one, else the host's system directories.
   * `host`: the host's system directories even in a run with an image (a server step that needs the
   * host's tools on the same workspace).
   */
  view?: 'run' | 'host';
  /**
   * Called with a connection the egress policy refused, instead of failing the run with `egress_denied`:
   * for a program whose own background traffic (a CLI's telemetry) is refused without ending its work.
   */
  onEgressDenied?: (message: string) => void;
}

/** An unpacked image as a run's root file system (docs/sandbox.md §Image root). */
export interface ImageRoot {
  /** Host path of the image's root file system (read-only, shared by every run on its digest). */
  rootfs: string;
  /** The image's Env: PATH and the rest, under the run's own variables. */
  env: Record<string, string>;
  /** The image's WorkingDir (processes still start in /workspace; see docs/sandbox.md). */
  workingDir: string;
  /** Called once when the run's sandbox closes: the image is no longer in use by it. */
  release?(): void;
}

/** The sandbox of one execution of one run. */
export interface RunSandbox {
  /** Starts a process in the run's workspace; rejects with SandboxUnavailableError. */
  spawn(request: SpawnRequest): Promise<SandboxedProcess>;
  /** fetch for requests the server makes on the run's behalf (MCP `url` servers), under the egress policy. */
  readonly fetch: typeof globalThis.fetch;
  /** The first limit hit, egress denial or unavailability in this run; the run FAILS with it. */
  readonly failure: SandboxFailure | undefined;
  /** The workspace as the run's processes see it. */
  readonly workspacePath: string;
  /** Owner the server gives files it writes into the workspace (attachments); undefined: its own. */
  readonly workspaceOwner: HostOwner | undefined;
  /** Makes the workspace ready (mounts its disk); before the server writes into it. Rejects with SandboxUnavailableError. */
  openWorkspace(): Promise<void>;
  /** From now on, processes with the `run` view start in this image; released when the sandbox closes. */
  useImage(image: ImageRoot): void;
  /** Stops every process of the run so far (the setup phase's, before the agent's): the fence stays. */
  stopProcesses(): Promise<void>;
  /** The run's image, when it has one. */
  readonly image: ImageRoot | undefined;
  close(): Promise<void>;
}

export interface Sandbox {
  readonly status: SandboxStatus;
  forRun(runId: string, workDir: string): RunSandbox;
  /** Before a run's workspace is deleted (retention): unmounts and deletes its disk. */
  discardWorkspace(runId: string, workDir: string): Promise<void>;
  close(): Promise<void>;
}

/** `modelGateway`: what a run's egress proxy serves at the gateway's reserved host (engine/gateway). */
export function createSandbox(settings: Settings, log: Logger, modelGateway?: Pick<ModelGateway, 'entranceFor'>): Sandbox {
  const config = settings.sandbox;
  const policy = createEgressPolicy(config);
  const problems: string[] = [];
  if (config.mode === 'none') {
    log.warn("SANDBOX=none: run processes execute on this host with the server's rights — single-tenant development only");
    const status: SandboxStatus = { mode: 'none', available: true, network: config.network, limits: 'none', disk: 'none', host_uid: null, problems };
    return new HostSandbox(config, policy, status);
  }
  const bwrap = findOnPath('bwrap', config.searchPath);
  const socat = findOnPath('socat', config.searchPath);
  const setpriv = findOnPath('setpriv', config.searchPath);
  const stateDir = path.join(settings.dataDir, 'sandbox');
  const etcDir = path.join(stateDir, 'etc');
  writeSandboxEtc(etcDir);
  const cgroups = detectCgroups(`agent-runs-${process.pid}`);
  // As root, sandboxed processes run as an unprivileged host uid, so nothing a run makes is root's on the host.
  const owner = process.getuid?.() === 0 ? { uid: config.hostUid, gid: config.hostUid } : undefined;
  const fence: FenceTools = {
    cgroups,
    disks: detectWorkspaceDisks(settings.dataDir, config.diskBytes, owner, problems),
    owner,
    traversed: owner ? [settings.dataDir, path.join(settings.dataDir, 'runs'), stateDir, etcDir] : [],
  };
  const asOwner = owner ? hostUserPrefix(setpriv, owner) : [];
  let available = false;
  if (!bwrap) {
    problems.push('bubblewrap is not installed: install the package `bubblewrap` (or set SANDBOX=none for single-tenant development)');
  } else if (owner && !setpriv) {
    problems.push('setpriv is not installed (package `util-linux`): sandboxed processes would run as host root');
  } else {
    const probe = probeBwrap(bwrap, stateDir, fence, asOwner);
    const hint = owner ? ` (it runs as SANDBOX_HOST_UID ${owner.uid}, which needs search permission, o+x, on each parent of DATA_DIR)` : '';
    if (probe) problems.push(`bubblewrap cannot create a sandbox here: ${probe}${hint}`);
    available = !probe;
  }
  if (available && config.network !== 'none' && !socat) {
    problems.push('socat is not installed: sandboxed processes get no network (install the package `socat` for SANDBOX_NETWORK=' + config.network + ')');
  }
  if (available && !cgroups) {
    problems.push('no writable cgroup: memory and process limits are per-process rlimits and a run that hits one is not told which');
  }
  const status: SandboxStatus = {
    mode: 'bwrap',
    available,
    network: config.network,
    limits: cgroups ? (`cgroup v${cgroups.version}` as const) : 'rlimit',
    disk: fence.disks.mode,
    host_uid: owner?.uid ?? null,
    problems,
  };
  for (const problem of problems) log.warn({ sandbox: status.mode }, problem);
  return new BwrapSandbox(config, policy, status, { bwrap: bwrap ?? 'bwrap', socat, stateDir, fence, asOwner, modelGateway });
}

/** setpriv drops root for good before bubblewrap starts (about 2 ms). */
const hostUserPrefix = (setpriv: string | undefined, owner: HostOwner): string[] => [
  setpriv ?? 'setpriv',
  `--reuid=${owner.uid}`,
  `--regid=${owner.gid}`,
  '--clear-groups',
  '--',
];

abstract class BaseSandbox implements Sandbox {
  constructor(
    protected readonly config: SandboxSettings,
    protected readonly policy: EgressPolicy,
    readonly status: SandboxStatus,
  ) {}

  forRun(runId: string, workDir: string): RunSandbox {
    const sandbox = this;
    const fence = this.fenceFor(runId, workDir);
    let failure: SandboxFailure | undefined;
    const fail = (f: SandboxFailure) => {
      failure ??= f;
    };
    const guarded: EgressFetch = createEgressFetch(this.policy);
    const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: Parameters<typeof globalThis.fetch>[1]) => {
      try {
        return await guarded(input, init);
      } catch (err) {
        const denial = egressDenialOf(err);
        if (denial) fail({ message: denial.message, error_code: 'egress_denied', retryable: false });
        throw err;
      }
    }) as typeof globalThis.fetch;
    const processes = new Set<SandboxedProcess>();
    const openWorkspace = () =>
      fence.openWorkspace().catch((err: unknown) => {
        // The operator's reason, without the host's paths (the message is the team's to read).
        const reason = (err as Error).message.replaceAll(path.dirname(path.dirname(workDir)), 'DATA_DIR').slice(0, 300);
        const unavailable = new SandboxUnavailableError(`The run's workspace could not be prepared: ${reason}`);
        fail(unavailable.statusMessage);
        throw unavailable;
      });
    let image: ImageRoot | undefined;
    return {
      fetch,
      get failure() {
        return failure;
      },
      get image() {
        return image;
      },
      useImage(next) {
        image?.release?.();
        image = next;
      },
      workspacePath: this.workspacePath(workDir),
      workspaceOwner: this.workspaceOwner(),
      openWorkspace,
      async spawn(request) {
        let proc: SandboxedProcess;
        try {
          await openWorkspace();
          proc = await sandbox.launch(runId, workDir, request, fence, request.view === 'host' ? undefined : image);
        } catch (err) {
          if (err instanceof SandboxUnavailableError) fail(err.statusMessage);
          throw err;
        }
        processes.add(proc);
        void proc.exited.then((exit) => {
          processes.delete(proc);
          if (exit.violation) fail({ ...exit.violation, retryable: false });
        });
        return proc;
      },
      async stopProcesses() {
        for (const proc of processes) proc.terminate();
        await Promise.all([...processes].map((p) => p.exited));
        fence.killAll();
      },
      async close() {
        await this.stopProcesses();
        await fence.close();
        await guarded.close();
        image?.release?.();
      },
    };
  }

  /** The allow-listed environment every process gets, whatever the server's own environment holds. */
  protected baseEnv(pathValue: string, home: string): Record<string, string> {
    return { PATH: pathValue, HOME: home, LANG: this.config.lang, TERM: this.config.term };
  }

  protected abstract workspacePath(workDir: string): string;
  protected abstract workspaceOwner(): HostOwner | undefined;
  protected abstract fenceFor(runId: string, workDir: string): RunFence;
  protected abstract launch(runId: string, workDir: string, request: SpawnRequest, fence: RunFence, image: ImageRoot | undefined): Promise<SandboxedProcess>;
  abstract discardWorkspace(runId: string, workDir: string): Promise<void>;
  abstract close(): Promise<void>;
}

/** SANDBOX=none: on the host, but never with the server's environment. */
class HostSandbox extends BaseSandbox {
  protected workspacePath(workDir: string): string {
    return workDir;
  }

  protected workspaceOwner(): undefined {
    return undefined;
  }

  protected fenceFor(): RunFence {
    return NO_FENCE;
  }

  async discardWorkspace(): Promise<void> {}

  protected async launch(_runId: string, workDir: string, request: SpawnRequest, _fence: RunFence, image: ImageRoot | undefined): Promise<SandboxedProcess> {
    if (image)
      throw new SandboxUnavailableError("The run's environment has a docker_image, which needs SANDBOX=bwrap: SANDBOX=none runs processes on this host.");
    const [file, ...args] = request.argv as [string, ...string[]];
    return launchSupervised({
      file,
      args,
      env: { ...this.baseEnv(this.config.searchPath, workDir), ...request.env },
      cwd: workDir,
      stdin: request.stdin,
      wallTimeMs: request.wallTimeMs,
      outputLimitBytes: request.limitOutput ? this.config.outputBytes : undefined,
      runLimits: undefined,
      fileSizeViolation: undefined,
      isolated: false,
      cleanup: async () => {},
    });
  }

  async close(): Promise<void> {}
}

interface BwrapTools {
  bwrap: string;
  socat: string | undefined;
  stateDir: string;
  fence: FenceTools;
  /** The command prefix that starts bubblewrap as the host uid (empty when the server is not root). */
  asOwner: string[];
  modelGateway: Pick<ModelGateway, 'entranceFor'> | undefined;
}

class BwrapSandbox extends BaseSandbox {
  #socketDir: string | undefined;
  #helperTools: HelperTools | undefined;

  constructor(
    config: SandboxSettings,
    policy: EgressPolicy,
    status: SandboxStatus,
    private readonly tools: BwrapTools,
  ) {
    super(config, policy, status);
  }

  protected workspacePath(): string {
    return WORKSPACE;
  }

  protected workspaceOwner(): HostOwner | undefined {
    return this.tools.fence.owner;
  }

  protected fenceFor(runId: string, workDir: string): RunFence {
    return openRunFence(`${runId.slice(0, 8)}-${randomBytes(4).toString('hex')}`, runId, workDir, this.config, this.tools.fence);
  }

  discardWorkspace(runId: string, workDir: string): Promise<void> {
    return this.tools.fence.disks.discard(runId, workDir);
  }

  protected async launch(runId: string, workDir: string, request: SpawnRequest, fence: RunFence, image: ImageRoot | undefined): Promise<SandboxedProcess> {
    if (!this.status.available)
      throw new SandboxUnavailableError(`The run cannot start a process: ${this.status.problems[0] ?? 'the sandbox is unavailable'}.`);
    const { config, tools } = this;
    const id = `${runId.slice(0, 8)}-${randomBytes(4).toString('hex')}`;
    const networked = config.network !== 'none' && tools.socat !== undefined;
    const egressSocket = networked ? path.join(this.#egressSocketDir(), `${id}.sock`) : undefined;
    const cgrouped = fence.procsFiles.length > 0;
    const fileSizeLimited = this.status.disk === 'rlimit';

    // rlimits inside: CPU time always (SIGXCPU at the soft limit tells it apart); the others back the
    // run's cgroup and disk up, or stand in for them where there are none.
    const rlimits = [`--cpu=${config.cpuSeconds}:${config.cpuSeconds + 5}`, '--core=0', `--nproc=${config.maxProcesses}`];
    if (!cgrouped) rlimits.push(`--as=${config.memoryBytes}`);
    if (fileSizeLimited) rlimits.push(`--fsize=${config.diskBytes}`);
    // In an image the host's helpers (prlimit, socat, sh) run from their own read-only binds.
    const helpers = image ? this.#imageHelpers() : HOST_TOOLS;
    const limited = [...helpers.command('prlimit'), ...rlimits, '--', ...request.argv];
    const argv = networked ? withEgressBridge(limited, helpers) : limited;
    const rootEnv = image ? { ...image.env, ...this.baseEnv(image.env.PATH ?? SANDBOX_PATH, WORKSPACE) } : this.baseEnv(SANDBOX_PATH, WORKSPACE);
    const env = { ...rootEnv, ...request.env, ...(networked ? egressProxyEnv() : {}) };
    const etcDir = path.join(tools.stateDir, 'etc');
    const bwrapOptionList = bwrapOptions({ workDir, env, egressSocket, etcDir, binds: request.binds ?? [], image: image && { rootfs: image.rootfs, helpers } });

    let proc: SandboxedProcess | undefined;
    // Listening before the process starts: its first request must find the proxy.
    const proxy = egressSocket
      ? await startEgressProxy({
          policy: this.policy,
          socketPath: egressSocket,
          ...(tools.modelGateway ? { modelGateway: tools.modelGateway.entranceFor(runId) } : {}),
          onDenied: ({ host, port, reason }) => {
            const message = `egress to ${formatHostPort(host, port)} denied: ${reason}`;
            if (request.onEgressDenied) request.onEgressDenied(message);
            else proc?.violate({ error_code: 'egress_denied', message });
          },
        })
      : undefined;
    const owner = tools.fence.owner;
    if (egressSocket && owner) fs.chownSync(egressSocket, owner.uid, owner.gid); // bubblewrap binds it as the host uid
    // The launcher joins the run's cgroup (as root) before bubblewrap forks anything, so nothing escapes
    // the limits; then setpriv drops to the host uid. Bubblewrap's own command line, environment and
    // working directory show in the sandbox's /proc/1: nothing of the host.
    // Its options (host paths, the run's variables) come through a pipe, so no argv shows them; only the
    // command, which names sandbox paths only, stays in its argv.
    const bwrapCommand = [...tools.asOwner, tools.bwrap, '--args', '3', '--', ...argv];
    const [file, ...args] = cgrouped ? ['/bin/sh', '-c', LAUNCHER, 'sandbox-launcher', ...fence.procsFiles, '--', ...bwrapCommand] : bwrapCommand;
    proc = launchSupervised({
      file: file!,
      args,
      env: {},
      cwd: '/',
      stdin: request.stdin,
      wallTimeMs: request.wallTimeMs,
      outputLimitBytes: request.limitOutput ? config.outputBytes : undefined,
      runLimits: fence,
      fileSizeViolation: fileSizeLimited ? diskLimitViolation(config) : undefined,
      isolated: true,
      fd3Arguments: bwrapOptionList,
      cleanup: async () => {
        await proxy?.close().catch(() => {});
      },
    });
    return proc;
  }

  /** The host's helper programs and the libraries they load, found once (ldd) when a run first uses an image. */
  #imageHelpers(): HelperTools {
    this.#helperTools ??= resolveImageHelpers(this.config.searchPath);
    return this.#helperTools;
  }

  /** Unix socket paths are short (108 bytes): the egress sockets live in a private temp dir. */
  #egressSocketDir(): string {
    if (!this.#socketDir) {
      this.#socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-egress-'));
      const owner = this.tools.fence.owner;
      if (owner) fs.chownSync(this.#socketDir, owner.uid, owner.gid);
    }
    return this.#socketDir;
  }

  async close(): Promise<void> {
    if (this.#socketDir) fs.rmSync(this.#socketDir, { recursive: true, force: true });
    this.tools.fence.cgroups?.removeParents();
  }
}

/** Writes its pid into each `cgroup.procs` named before `--`, then execs the rest with an empty environment. */
const LAUNCHER = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec /usr/bin/env -i "$@"';

/**
 * Runs `true` in a sandbox once, at start-up (a few milliseconds, so synchronously): undefined when it
 * works, else bubblewrap's complaint (no user namespaces, too old for --disable-userns, …).
 */
const bwrapProbes = new Map<string, string | undefined>();

function probeBwrap(bwrap: string, stateDir: string, fence: FenceTools, asOwner: string[]): string | undefined {
  const workDir = path.join(stateDir, 'probe');
  ensurePrivateDir(workDir);
  if (fence.owner) {
    letHostUidThrough(fence);
    fs.chownSync(workDir, fence.owner.uid, fence.owner.gid);
  }
  const args = bwrapArguments({
    workDir,
    env: { PATH: SANDBOX_PATH },
    egressSocket: undefined,
    etcDir: path.join(stateDir, 'etc'),
    argv: ['/bin/true'],
    binds: [],
  });
  // Once per process for a bubblewrap, a host uid and the directory the data directories are made in: what it
  // finds (user namespaces, setuid, the parents' search permission) does not change while the process runs.
  const key = [...asOwner, bwrap, path.dirname(path.dirname(stateDir))].join('\0');
  if (!bwrapProbes.has(key)) bwrapProbes.set(key, runBwrapProbe([...asOwner, bwrap, ...args]));
  return bwrapProbes.get(key);
}

function runBwrapProbe([file, ...rest]: string[]): string | undefined {
  const probe = spawnSync(file!, rest, { env: { PATH: '/usr/bin:/bin' }, cwd: '/', stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (probe.error) return probe.error.message;
  return probe.status === 0 ? undefined : probe.stderr.toString('utf8').trim().slice(0, 300) || `exit status ${probe.status}`;
}

/**
 * The helpers a sandbox runs before the run's own program (prlimit, and for the egress bridge sh, socat,
 * grep, sleep), with every library they load, for binding into an image that has none of them. They run
 * through the host's dynamic loader, so the image's own libc never meets the host's binaries.
 */
function resolveImageHelpers(searchPath: string): HelperTools {
  const programs: Record<string, string> = {};
  const libraries = new Set<string>();
  let loader: string | undefined;
  for (const name of ['prlimit', 'sh', 'socat', 'grep', 'sleep']) {
    const found = findOnPath(name, searchPath);
    if (!found) continue;
    programs[name] = fs.realpathSync(found);
    const ldd = spawnSync('ldd', [programs[name]], { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8', timeout: 10_000 });
    for (const line of (ldd.stdout ?? '').split('\n')) {
      const lib = /=>\s+(\/\S+)/.exec(line)?.[1] ?? /^\s*(\/\S*ld-linux\S*)/.exec(line)?.[1];
      if (!lib) continue;
      if (/ld-linux|ld64|ld-musl/.test(path.basename(lib))) loader = fs.realpathSync(lib);
      else libraries.add(fs.realpathSync(lib) + '\0' + path.basename(lib));
    }
  }
  return imageHelperTools(
    programs,
    [...libraries].map((entry) => entry.split('\0') as [string, string]),
    loader,
  );
}

function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(':')) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
