/**
 * The content-addressed image cache of one server (docs/sandbox.md §Image root):
 *
 *   resolve (skopeo inspect --raw: the manifest, its sha256 is the digest) → pull by digest (skopeo copy into
 *   a private OCI layout) → unpack once (umoci unpack --rootless) → hygiene (rootfs-hygiene.ts) →
 *   DATA_DIR/images/<hex>/{rootfs, image.json}, shared read-only by every run on that digest.
 *
 * Two runs that need one digest at once share one pull (single-flight per process; across processes the
 * atomic rename of the finished entry decides and the loser's copy is dropped). Entries beyond
 * IMAGE_CACHE_MB are evicted least recently used first (last use = the entry's mtime), never one in use.
 * Credentials reach skopeo only through a 0600 authfile in a private temp dir, deleted after use.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir } from '../../private-files';
import type { ImageSettings } from '../../settings';
import { runHostCommand, type HostCommandResult } from '../sandbox/host-command';
import type { ImageRoot } from '../sandbox';
import { dockerTransportName, type ImageReference } from './reference';
import { createRegistryPolicy, type RegistryPolicy } from './registries';
import { enforceRootfsHygiene } from './rootfs-hygiene';

export interface PullProgress {
  bytes: number;
  /** Sum of the layers' sizes when the manifest names them (an index does not). */
  totalBytes: number | undefined;
}

export interface ImageRequest {
  reference: ImageReference;
  /** `user:password`, or a token (sent as the password of user `token`). */
  credentials?: string | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: PullProgress) => void) | undefined;
}

/** An image ready for a run; `release()` once the run's sandbox is closed. */
export interface ImageLease extends ImageRoot {
  digest: string;
  release(): void;
}

/** Why an image cannot be used: the run FAILS `image_unavailable` with this reason. */
export class ImageUnavailableError extends Error {
  override readonly name = 'ImageUnavailableError';
}

export interface ImageCache {
  readonly policy: RegistryPolicy;
  acquire(request: ImageRequest): Promise<ImageLease>;
  /** Digests of the cached entries, least recently used first (tests, benchmarks). */
  entries(): Promise<string[]>;
}

interface EntryMeta {
  digest: string;
  env: Record<string, string>;
  workingDir: string;
  bytes: number;
}

const TOOL_PATH = '/usr/local/bin:/usr/bin:/bin';
const PULL_TIMEOUT_MS = 15 * 60_000;
const PROGRESS_POLL_MS = 250;
const REASON_CHARS = 300;

export function createImageCache(settings: { dataDir: string; images: ImageSettings }): ImageCache {
  const root = path.join(settings.dataDir, 'images');
  const staging = path.join(root, '.staging');
  const policy = createRegistryPolicy(settings.images.registries);
  const inFlight = new Map<string, { done: Promise<EntryMeta>; listeners: Set<(p: PullProgress) => void> }>();
  const inUse = new Map<string, number>();
  const entryDir = (hex: string) => path.join(root, hex);

  async function readEntry(hex: string): Promise<EntryMeta | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(entryDir(hex), 'image.json'), 'utf8')) as EntryMeta;
    } catch {
      return undefined;
    }
  }

  function lease(hex: string, meta: EntryMeta): ImageLease {
    inUse.set(hex, (inUse.get(hex) ?? 0) + 1);
    const now = new Date();
    void fs.utimes(entryDir(hex), now, now).catch(() => {});
    let released = false;
    return {
      digest: meta.digest,
      rootfs: path.join(entryDir(hex), 'rootfs'),
      env: meta.env,
      workingDir: meta.workingDir,
      release() {
        if (released) return;
        released = true;
        const left = (inUse.get(hex) ?? 1) - 1;
        if (left > 0) inUse.set(hex, left);
        else inUse.delete(hex);
      },
    };
  }

  async function pull(
    ref: ImageReference,
    digest: string,
    totalBytes: number | undefined,
    authFile: string | undefined,
    notify: (p: PullProgress) => void,
  ): Promise<EntryMeta> {
    const hex = digest.slice('sha256:'.length);
    ensurePrivateDir(staging);
    // Search only: sandboxes started as the host uid (docs/sandbox.md) reach an image's rootfs by path.
    await fs.chmod(root, 0o711);
    const stage = await fs.mkdtemp(path.join(staging, `${hex.slice(0, 12)}-`));
    const layout = path.join(stage, 'layout');
    const blobs = path.join(layout, 'blobs', 'sha256');
    const ticker = setInterval(
      () =>
        void directoryBytes(blobs).then(
          (bytes) => notify({ bytes, totalBytes }),
          () => {},
        ),
      PROGRESS_POLL_MS,
    );
    try {
      const copyArgs = ['--insecure-policy', 'copy', '--quiet'];
      if (policy.plainHttp(ref.registry)) copyArgs.push('--src-tls-verify=false');
      if (authFile) copyArgs.push('--src-authfile', authFile);
      copyArgs.push(dockerTransportName(ref, digest), `oci:${layout}:${hex}`);
      await tool('skopeo', copyArgs, stage, 'pulling');
      notify({ bytes: await directoryBytes(blobs), totalBytes });
      const bundle = path.join(stage, 'bundle');
      await tool('umoci', ['unpack', '--rootless', '--image', `${layout}:${hex}`, bundle], stage, 'unpacking');
      const config = await readImageConfig(layout, hex);
      const hygiene = await enforceRootfsHygiene(path.join(bundle, 'rootfs'));
      const entry = path.join(stage, 'entry');
      await fs.mkdir(entry, { mode: 0o755 });
      await fs.rename(path.join(bundle, 'rootfs'), path.join(entry, 'rootfs'));
      const meta: EntryMeta = { digest, ...config, bytes: hygiene.bytes };
      await fs.writeFile(path.join(entry, 'image.json'), JSON.stringify(meta), { mode: 0o644 });
      try {
        await fs.rename(entry, entryDir(hex));
      } catch (err) {
        // Another process finished the same digest first: its entry is as good as ours.
        const winner = await readEntry(hex);
        if (!winner) throw err;
        return winner;
      }
      return meta;
    } finally {
      clearInterval(ticker);
      await fs.rm(stage, { recursive: true, force: true });
    }
  }

  /** `keep`: the entry just pulled, not yet leased by the runs waiting for it. */
  async function evict(keep: string): Promise<void> {
    const entries = await listEntries();
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    for (const entry of entries) {
      if (total <= settings.images.cacheBytes) break;
      if (entry.hex === keep || inUse.has(entry.hex)) continue;
      await fs.rm(entryDir(entry.hex), { recursive: true, force: true });
      total -= entry.bytes;
    }
  }

  async function listEntries(): Promise<Array<{ hex: string; bytes: number; usedAt: number }>> {
    let names: string[];
    try {
      names = await fs.readdir(root);
    } catch {
      return [];
    }
    const entries = await Promise.all(
      names
        .filter((name) => /^[0-9a-f]{64}$/.test(name))
        .map(async (hex) => {
          const [meta, stat] = await Promise.all([readEntry(hex), fs.stat(entryDir(hex)).catch(() => undefined)]);
          return meta && stat ? { hex, bytes: meta.bytes, usedAt: stat.mtimeMs } : undefined;
        }),
    );
    return entries.filter((e) => e !== undefined).sort((a, b) => a.usedAt - b.usedAt);
  }

  return {
    policy,
    entries: async () => (await listEntries()).map((e) => `sha256:${e.hex}`),
    async acquire(request) {
      const { reference: ref } = request;
      const allowed = await policy.checkAddresses(ref.registry);
      if (!allowed.allowed) throw new ImageUnavailableError(allowed.reason);
      const credentialsDir = request.credentials ? await writeAuthFile(ref.registry, request.credentials) : undefined;
      try {
        const authFile = credentialsDir && path.join(credentialsDir, 'auth.json');
        const { digest, totalBytes } = await resolve(ref, authFile, policy, request.signal);
        const hex = digest.slice('sha256:'.length);
        const cached = await readEntry(hex);
        if (cached) return lease(hex, cached);
        let flight = inFlight.get(digest);
        if (!flight) {
          const listeners = new Set<(p: PullProgress) => void>();
          const notify = (p: PullProgress) => listeners.forEach((listener) => listener(p));
          // The waiters get the entry once the cache is back under its size (evict keeps this entry).
          const done = pull(ref, digest, totalBytes, authFile, notify)
            .then(async (meta) => {
              await evict(hex);
              return meta;
            })
            .finally(() => inFlight.delete(digest));
          flight = { done, listeners };
          inFlight.set(digest, flight);
        }
        if (request.onProgress) flight.listeners.add(request.onProgress);
        try {
          const meta = await abortable(flight.done, request.signal);
          return lease(hex, meta);
        } finally {
          if (request.onProgress) flight.listeners.delete(request.onProgress);
        }
      } finally {
        if (credentialsDir) await fs.rm(credentialsDir, { recursive: true, force: true });
      }
    },
  };
}

/** The manifest's digest (sha256 of its bytes, as the registry serves them) and its layers' total size. */
async function resolve(ref: ImageReference, authFile: string | undefined, policy: RegistryPolicy, signal: AbortSignal | undefined) {
  const args = ['--insecure-policy', 'inspect', '--raw', '--retry-times', '1'];
  if (policy.plainHttp(ref.registry)) args.push('--tls-verify=false');
  if (authFile) args.push('--authfile', authFile);
  args.push(dockerTransportName(ref));
  const { stdout } = await tool('skopeo', args, os.tmpdir(), 'resolving', signal);
  const digest = `sha256:${createHash('sha256').update(stdout, 'utf8').digest('hex')}`;
  if (ref.digest && ref.digest !== digest) throw new ImageUnavailableError(`the registry answered a manifest whose digest is ${digest}`);
  let totalBytes: number | undefined;
  try {
    const manifest = JSON.parse(stdout) as { layers?: Array<{ size?: number }>; config?: { size?: number } };
    if (manifest.layers) totalBytes = manifest.layers.reduce((sum, layer) => sum + (layer.size ?? 0), manifest.config?.size ?? 0);
  } catch {
    throw new ImageUnavailableError('the registry answered a manifest that is not JSON');
  }
  return { digest, totalBytes };
}

/**
 * Runs skopeo or umoci with nothing of the server's environment: HOME is an empty private dir, so no
 * credentials of the host (~/.docker/config.json, $XDG_RUNTIME_DIR/containers/auth.json) are ever used.
 */
async function tool(name: 'skopeo' | 'umoci', args: string[], cwd: string, doing: string, signal?: AbortSignal): Promise<HostCommandResult> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-runs-image-home-'));
  const timeout = AbortSignal.timeout(PULL_TIMEOUT_MS);
  try {
    const result = await runHostCommand(name, args, {
      env: { PATH: TOOL_PATH, HOME: home, XDG_RUNTIME_DIR: home, TMPDIR: home },
      cwd,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((err: Error) => {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw new ImageUnavailableError(`${doing} took longer than ${PULL_TIMEOUT_MS / 60_000} minutes`);
      throw new ImageUnavailableError(`${name} could not start: ${err.message} (install the package \`${name}\`)`);
    });
    if (result.code !== 0) throw new ImageUnavailableError(imageToolFailureReason(name, doing, result.stderr));
    return result;
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

/** A short reason from a tool's complaint: the registry's answer when it gave one. */
export function imageToolFailureReason(name: string, doing: string, stderr: string): string {
  const text = stderr.replace(/\s+/g, ' ');
  if (/manifest unknown|name unknown|not found/i.test(text)) return 'the image is not in the registry (manifest unknown)';
  // Status codes as words: a layer's hex digest in a complaint may hold "401" or "403".
  if (/unauthorized|authentication required|denied|\b40[13]\b/i.test(text)) return 'the registry refused access (authentication failed or required)';
  if (/connection refused|no such host|i\/o timeout|network is unreachable|TLS handshake|http: server gave HTTP response to HTTPS client/i.test(text)) {
    return `the registry could not be reached (${lastMessage(text)})`;
  }
  if (/digest|checksum|unexpected EOF|gzip|tar|invalid/i.test(text)) return `a layer is corrupt or unreadable (${name}: ${lastMessage(text)})`;
  return `${doing} failed (${name}: ${lastMessage(text)})`;
}

function lastMessage(text: string): string {
  const msg = /msg="((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? text.trim();
  return msg.length > REASON_CHARS ? `${msg.slice(0, REASON_CHARS)}…` : msg;
}

/** A private dir with a 0600 containers-auth.json for one registry. */
async function writeAuthFile(registry: string, credentials: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-runs-registry-auth-'));
  await fs.chmod(dir, 0o700);
  const userPassword = credentials.includes(':') ? credentials : `token:${credentials}`;
  const auths = { auths: { [registry]: { auth: Buffer.from(userPassword, 'utf8').toString('base64') } } };
  await fs.writeFile(path.join(dir, 'auth.json'), JSON.stringify(auths), { mode: 0o600 });
  return dir;
}

/** Env and WorkingDir of the image, from its OCI config (index.json → manifest → config). */
async function readImageConfig(layout: string, hex: string): Promise<{ env: Record<string, string>; workingDir: string }> {
  const blob = async (digest: string) => JSON.parse(await fs.readFile(path.join(layout, 'blobs', ...digest.split(':')), 'utf8')) as Record<string, unknown>;
  const index = JSON.parse(await fs.readFile(path.join(layout, 'index.json'), 'utf8')) as {
    manifests: Array<{ digest: string; annotations?: Record<string, string> }>;
  };
  const entry = index.manifests.find((m) => m.annotations?.['org.opencontainers.image.ref.name'] === hex) ?? index.manifests[0];
  if (!entry) throw new ImageUnavailableError('the pulled image has no manifest');
  const manifest = (await blob(entry.digest)) as { config: { digest: string } };
  const config = ((await blob(manifest.config.digest)) as { config?: { Env?: string[]; WorkingDir?: string } }).config ?? {};
  const env: Record<string, string> = {};
  for (const pair of config.Env ?? []) {
    const eq = pair.indexOf('=');
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { env, workingDir: config.WorkingDir || '/' };
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await fs.readdir(dir)) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => undefined);
    total += stat?.size ?? 0;
  }
  return total;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
