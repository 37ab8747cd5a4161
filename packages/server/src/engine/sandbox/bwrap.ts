/**
 * The bubblewrap command line of one sandboxed process (docs/sandbox.md):
 *
 * - namespaces: user, mount, PID, IPC, UTS, network and cgroup of its own; uid/gid 1000 inside, no
 *   capabilities, no nested user namespaces; `--die-with-parent`, `--new-session`;
 * - files: the system's read-only directories (`/usr`, `/bin`, `/lib*`) and a minimal `/etc` — or, for a
 *   run with an image, every top-level entry of the image's root read-only (docs/sandbox.md §Image root) —,
 *   the run's workspace at /workspace (writable), a private /tmp, its own /proc and /dev — nothing else of
 *   the host; /proc/sys read-only;
 * - environment: exactly the variables given (`--clearenv`);
 * - network: none, or the egress proxy's unix socket bridged to 127.0.0.1:3128 inside by socat.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../../private-files';

export const WORKSPACE = '/workspace';
export const SANDBOX_UID = 1000;
/** Where the egress proxy's socket appears inside, and the port the bridge listens on. */
export const EGRESS_SOCKET = '/run/agent-runs/egress.sock';
export const EGRESS_PROXY_PORT = 3128;
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

/** System directories bound read-only (or re-created as the symlinks they are on a merged-/usr host). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** The parts of the host's /etc programs need to run, resolve libraries and verify TLS. */
const ETC_ENTRIES = [
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'nsswitch.conf',
  'mime.types',
  'protocols',
  'services',
];

export interface BwrapPlan {
  /** Host path of the run's workspace. */
  workDir: string;
  /** The complete environment inside. */
  env: Record<string, string>;
  /** Host path of the egress proxy socket; undefined = no network at all. */
  egressSocket: string | undefined;
  /** Synthesised /etc files (passwd, group, hosts) on the host, from `writeSandboxEtc`. */
  etcDir: string;
  /** What runs inside (argv[0] an absolute path). */
  argv: string[];
  /** Extra host directories bound writable, or read-only (SpawnRequest.binds). */
  binds: Array<{ hostPath: string; sandboxPath: string; readOnly?: boolean }>;
  /** The run's image as the root instead of the host's system directories. */
  image?: { rootfs: string; helpers: HelperTools } | undefined;
}

/** How the sandbox's own helper programs are started inside, and what must be bound for them. */
export interface HelperTools {
  command(name: HelperName): string[];
  /** [host path, path inside], bound read-only. */
  binds: Array<[string, string]>;
}
type HelperName = 'prlimit' | 'sh' | 'socat' | 'grep' | 'sleep';

const HOST_TOOL_PATHS: Record<HelperName, string> = { prlimit: '/usr/bin/prlimit', sh: '/bin/sh', socat: 'socat', grep: 'grep', sleep: 'sleep' };
/** With the host's system directories, the helpers are simply there. */
export const HOST_TOOLS: HelperTools = { command: (name) => [HOST_TOOL_PATHS[name]], binds: [] };

/** Where an image run finds the host's helpers (outside every image's own tree). */
const HELPERS_DIR = '/run/agent-runs/helpers';

/** The host's helper programs, their libraries and loader, bound under HELPERS_DIR and run through that loader. */
export function imageHelperTools(programs: Record<string, string>, libraries: Array<[string, string]>, loader: string | undefined): HelperTools {
  const binds: Array<[string, string]> = Object.entries(programs).map(([name, host]) => [host, `${HELPERS_DIR}/bin/${name}`]);
  for (const [host, name] of libraries) binds.push([host, `${HELPERS_DIR}/lib/${name}`]);
  if (loader) binds.push([loader, `${HELPERS_DIR}/lib/ld.so`]);
  return {
    binds,
    command: (name) => [...(loader ? [`${HELPERS_DIR}/lib/ld.so`, '--library-path', `${HELPERS_DIR}/lib`] : []), `${HELPERS_DIR}/bin/${name}`],
  };
}

/** Top-level names of an image the sandbox provides itself (or, for /etc, composes entry by entry). */
const SANDBOX_OWNED = new Set(['proc', 'dev', 'sys', 'tmp', 'run', 'etc', WORKSPACE.slice(1)]);
const SANDBOX_ETC_FILES = ['passwd', 'group', 'hosts'];

/** Each entry of `dir` bound read-only (a symlink re-created as itself, resolved inside the sandbox). */
function readOnlyEntries(dir: string, inside: string, skip: (name: string) => boolean): string[] {
  const args: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const host = path.join(dir, entry.name);
    const target = path.posix.join(inside, entry.name);
    if (entry.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(host), target);
    else if (entry.isDirectory() || entry.isFile()) args.push('--ro-bind', host, target);
  }
  return args;
}

/** An image's root: its top-level entries and its /etc, read-only, with the sandbox's own places left free. */
function imageRootArguments(image: NonNullable<BwrapPlan['image']>): string[] {
  const args = readOnlyEntries(image.rootfs, '/', (name) => SANDBOX_OWNED.has(name));
  args.push('--dir', '/etc');
  const etc = path.join(image.rootfs, 'etc');
  if (lstatOrUndefined(etc)?.isDirectory()) args.push(...readOnlyEntries(etc, '/etc', (name) => SANDBOX_ETC_FILES.includes(name)));
  for (const [host, inside] of image.helpers.binds) args.push('--ro-bind', host, inside);
  return args;
}

export function bwrapArguments(plan: BwrapPlan): string[] {
  return [...bwrapOptions(plan), '--', ...plan.argv];
}

/** Everything before the command: what `--args FD` may carry (bubblewrap takes the command from argv only). */
export function bwrapOptions(plan: Omit<BwrapPlan, 'argv'>): string[] {
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(SANDBOX_UID),
    '--gid',
    String(SANDBOX_UID),
    '--hostname',
    'sandbox',
    '--die-with-parent',
    '--new-session',
  ];
  if (plan.image) {
    args.push(...imageRootArguments(plan.image));
  } else {
    for (const dir of SYSTEM_DIRS) {
      const stat = lstatOrUndefined(dir);
      if (stat?.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(dir), dir);
      else if (stat?.isDirectory()) args.push('--ro-bind', dir, dir);
    }
    for (const entry of ETC_ENTRIES) {
      const host = path.join('/etc', entry);
      if (fs.existsSync(host)) args.push('--ro-bind', host, host);
    }
  }
  for (const file of SANDBOX_ETC_FILES) args.push('--ro-bind', path.join(plan.etcDir, file), `/etc/${file}`);
  // /proc/sys read-only: the sysctls a process may write in its own namespaces (hostname, IPC limits) are
  // not the run's to change; bubblewrap covers /proc/irq, /proc/bus and /proc/sysrq-trigger itself.
  args.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--bind', plan.workDir, WORKSPACE, '--chdir', WORKSPACE);
  if (plan.egressSocket) args.push('--bind', plan.egressSocket, EGRESS_SOCKET);
  for (const bind of plan.binds) args.push(bind.readOnly ? '--ro-bind' : '--bind', bind.hostPath, bind.sandboxPath);
  // Only the mounts above are writable; the root they hang from is not.
  args.push('--remount-ro', '/');
  args.push('--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  return args;
}

/**
 * Starts socat inside the sandbox (127.0.0.1:3128 → the egress socket), waits until it listens (its
 * socket shows in the sandbox's own /proc/net/tcp), then execs the process. Proxy-aware clients find it
 * through HTTP_PROXY/HTTPS_PROXY; nothing else has a route out.
 */
export function withEgressBridge(argv: string[], helpers: HelperTools = HOST_TOOLS): string[] {
  const listening = ` 0100007F:${EGRESS_PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} `;
  const run = (name: HelperName) => helpers.command(name).join(' ');
  const script = [
    `${run('socat')} TCP-LISTEN:${EGRESS_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_SOCKET} 2>/dev/null &`,
    `i=0; until ${run('grep')} -q '${listening}' /proc/net/tcp; do i=$((i+1)); [ $i -gt 400 ] && break; ${run('sleep')} 0.005; done`,
    'exec "$@"',
  ].join('\n');
  return [...helpers.command('sh'), '-c', script, 'egress-bridge', ...argv];
}

/** The proxy variables a process behind the bridge gets. */
export function egressProxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${EGRESS_PROXY_PORT}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: '', no_proxy: '' };
}

/** Writes the sandbox's own passwd, group and hosts (one user `agent`, no host accounts or names). */
export function writeSandboxEtc(dir: string): void {
  ensurePrivateDir(dir);
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text, { mode: 0o644 });
  write(
    'passwd',
    `root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:${SANDBOX_UID}:${SANDBOX_UID}:agent:${WORKSPACE}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  );
  write('group', `root:x:0:\nagent:x:${SANDBOX_UID}:\nnogroup:x:65534:\n`);
  write('hosts', '127.0.0.1 localhost sandbox\n::1 localhost\n');
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}
