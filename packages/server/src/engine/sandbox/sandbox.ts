/**
 * The Sandbox: every process a run causes — AGENT_COMMAND, environment setup commands, stdio MCP
 * servers, and whatever they start — is started here, and nowhere else (docs/sandbox.md).
 *
 *   const sandbox = createSandbox(settings, log);         // once per server: probes bubblewrap, socat, cgroups
 *   const runSandbox = sandbox.forRun(runId, workDir);      // once per execution of a run
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
import { bwrapArguments, egressProxyEnv, SANDBOX_PATH, withEgressBridge, WORKSPACE, writeSandboxEtc } from './bwrap';
import { detectCgroups, type CgroupManager } from './cgroups';
import { launchSupervised, type SandboxedProcess } from './supervised-process';

export type { SandboxedProcess, SandboxExit, SandboxViolation } from './supervised-process';

export interface SandboxStatus {
  /** SANDBOX: `bwrap` or `none`. */
  mode: Settings['sandbox']['mode'];
  /** False when `bwrap` is asked for but cannot run here (then runs that need a process fail). */
  available: boolean;
  network: SandboxSettings['network'];
  /** How memory and process counts are enforced: a cgroup per sandbox, or per-process rlimits only. */
  limits: 'cgroup v1' | 'cgroup v2' | 'rlimit' | 'none';
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
  close(): Promise<void>;
}

export interface Sandbox {
  readonly status: SandboxStatus;
  forRun(runId: string, workDir: string): RunSandbox;
  close(): Promise<void>;
}

/** `modelGateway`: what a run's egress proxy serves at the gateway's reserved host (engine/gateway). */
export function createSandbox(settings: Settings, log: Logger, modelGateway?: Pick<ModelGateway, 'entranceFor'>): Sandbox {
  const config = settings.sandbox;
  const policy = createEgressPolicy(config);
  const problems: string[] = [];
  if (config.mode === 'none') {
    log.warn('SANDBOX=none: run processes execute on this host with the server\'s rights — single-tenant development only');
    return new HostSandbox(config, policy, { mode: 'none', available: true, network: config.network, limits: 'none', problems });
  }
  const bwrap = findOnPath('bwrap', config.searchPath);
  const socat = findOnPath('socat', config.searchPath);
  const stateDir = path.join(settings.dataDir, 'sandbox');
  writeSandboxEtc(path.join(stateDir, 'etc'));
  const cgroups = detectCgroups(`agent-runs-${process.pid}`);
  let available = false;
  if (!bwrap) {
    problems.push('bubblewrap is not installed: install the package `bubblewrap` (or set SANDBOX=none for single-tenant development)');
  } else {
    const probe = probeBwrap(bwrap, stateDir);
    if (probe) problems.push(`bubblewrap cannot create a sandbox here: ${probe}`);
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
    problems,
  };
  for (const problem of problems) log.warn({ sandbox: status.mode }, problem);
  return new BwrapSandbox(config, policy, status, { bwrap: bwrap ?? 'bwrap', socat, stateDir, cgroups, modelGateway });
}

abstract class BaseSandbox implements Sandbox {
  constructor(
    protected readonly config: SandboxSettings,
    protected readonly policy: EgressPolicy,
    readonly status: SandboxStatus,
  ) {}

  forRun(runId: string, workDir: string): RunSandbox {
    const sandbox = this;
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
    return {
      fetch,
      get failure() {
        return failure;
      },
      workspacePath: this.workspacePath(workDir),
      async spawn(request) {
        let proc: SandboxedProcess;
        try {
          proc = await sandbox.launch(runId, workDir, request);
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
      async close() {
        for (const proc of processes) proc.terminate();
        await Promise.all([...processes].map((p) => p.exited));
        await guarded.close();
      },
    };
  }

  /** The allow-listed environment every process gets, whatever the server's own environment holds. */
  protected baseEnv(pathValue: string, home: string): Record<string, string> {
    return { PATH: pathValue, HOME: home, LANG: this.config.lang, TERM: this.config.term };
  }

  protected abstract workspacePath(workDir: string): string;
  protected abstract launch(runId: string, workDir: string, request: SpawnRequest): Promise<SandboxedProcess>;
  abstract close(): Promise<void>;
}

/** SANDBOX=none: on the host, but never with the server's environment. */
class HostSandbox extends BaseSandbox {
  protected workspacePath(workDir: string): string {
    return workDir;
  }

  protected async launch(_runId: string, workDir: string, request: SpawnRequest): Promise<SandboxedProcess> {
    const [file, ...args] = request.argv as [string, ...string[]];
    return launchSupervised({
      file,
      args,
      env: { ...this.baseEnv(this.config.searchPath, workDir), ...request.env },
      cwd: workDir,
      stdin: request.stdin,
      wallTimeMs: request.wallTimeMs,
      outputLimitBytes: request.limitOutput ? this.config.outputBytes : undefined,
      cgroup: undefined,
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
  cgroups: CgroupManager | undefined;
  modelGateway: Pick<ModelGateway, 'entranceFor'> | undefined;
}

class BwrapSandbox extends BaseSandbox {
  #socketDir: string | undefined;

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

  protected async launch(runId: string, workDir: string, request: SpawnRequest): Promise<SandboxedProcess> {
    if (!this.status.available) throw new SandboxUnavailableError(`The run cannot start a process: ${this.status.problems[0] ?? 'the sandbox is unavailable'}.`);
    const { config, tools } = this;
    const id = `${runId.slice(0, 8)}-${randomBytes(4).toString('hex')}`;
    const networked = config.network !== 'none' && tools.socat !== undefined;
    const egressSocket = networked ? path.join(this.#egressSocketDir(), `${id}.sock`) : undefined;
    const cgroup = createCgroup(tools.cgroups, id, config);

    // rlimits inside: CPU time always (SIGXCPU at the soft limit tells it apart); the others back the
    // cgroup up, or stand in for it where there is none.
    const rlimits = [`--cpu=${config.cpuSeconds}:${config.cpuSeconds + 5}`, '--core=0', `--nproc=${config.maxProcesses}`];
    if (!cgroup) rlimits.push(`--as=${config.memoryBytes}`);
    const limited = ['/usr/bin/prlimit', ...rlimits, '--', ...request.argv];
    const argv = networked ? withEgressBridge(limited) : limited;
    const env = { ...this.baseEnv(SANDBOX_PATH, WORKSPACE), ...request.env, ...(networked ? egressProxyEnv() : {}) };
    const bwrapArgs = bwrapArguments({ workDir, env, egressSocket, etcDir: path.join(tools.stateDir, 'etc'), argv });

    let proc: SandboxedProcess | undefined;
    // Listening before the process starts: its first request must find the proxy.
    const proxy = egressSocket
      ? await startEgressProxy({
          policy: this.policy,
          socketPath: egressSocket,
          ...(tools.modelGateway ? { modelGateway: tools.modelGateway.entranceFor(runId) } : {}),
          onDenied: ({ host, port, reason }) =>
            proc?.violate({ error_code: 'egress_denied', message: `egress to ${formatHostPort(host, port)} denied: ${reason}` }),
        })
      : undefined;
    // The launcher joins the cgroup before bubblewrap forks anything, so nothing escapes the limits.
    // Bubblewrap's own environment and working directory show in the sandbox's /proc/1: nothing of the host.
    const [file, args] = cgroup
      ? ['/bin/sh', ['-c', LAUNCHER, 'sandbox-launcher', ...cgroup.procsFiles, '--', tools.bwrap, ...bwrapArgs]]
      : [tools.bwrap, bwrapArgs];
    proc = launchSupervised({
      file,
      args,
      env: {},
      cwd: '/',
      stdin: request.stdin,
      wallTimeMs: request.wallTimeMs,
      outputLimitBytes: request.limitOutput ? config.outputBytes : undefined,
      cgroup,
      isolated: true,
      cleanup: async () => {
        await proxy?.close().catch(() => {});
        await cgroup?.remove();
      },
    });
    return proc;
  }

  /** Unix socket paths are short (108 bytes): the egress sockets live in a private temp dir. */
  #egressSocketDir(): string {
    this.#socketDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-egress-'));
    return this.#socketDir;
  }

  async close(): Promise<void> {
    if (this.#socketDir) fs.rmSync(this.#socketDir, { recursive: true, force: true });
    this.tools.cgroups?.removeParents();
  }
}

/** Writes its pid into each `cgroup.procs` named before `--`, then execs the rest with an empty environment. */
const LAUNCHER = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec /usr/bin/env -i "$@"';

/** A cgroup for one sandbox; undefined (rlimits only) when the host refuses it. */
function createCgroup(cgroups: CgroupManager | undefined, id: string, config: SandboxSettings) {
  try {
    return cgroups?.create(id, { memoryBytes: config.memoryBytes, maxProcesses: config.maxProcesses });
  } catch {
    return undefined;
  }
}

/**
 * Runs `true` in a sandbox once, at start-up (a few milliseconds, so synchronously): undefined when it
 * works, else bubblewrap's complaint (no user namespaces, too old for --disable-userns, …).
 */
function probeBwrap(bwrap: string, stateDir: string): string | undefined {
  const workDir = path.join(stateDir, 'probe');
  ensurePrivateDir(workDir);
  const args = bwrapArguments({ workDir, env: { PATH: SANDBOX_PATH }, egressSocket: undefined, etcDir: path.join(stateDir, 'etc'), argv: ['/bin/true'] });
  const probe = spawnSync(bwrap, args, { env: { PATH: '/usr/bin:/bin' }, cwd: workDir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (probe.error) return probe.error.message;
  return probe.status === 0 ? undefined : probe.stderr.toString('utf8').trim().slice(0, 300) || `exit status ${probe.status}`;
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
