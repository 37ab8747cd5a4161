/**
 * A real OCI registry on loopback (Debian's `docker-registry`, filesystem storage in a temp dir; with
 * `auth`, htpasswd basic auth) and test images built offline (umoci, from busybox-static: no base image
 * can be downloaded here), pushed with skopeo.
 *
 *   const registry = await startTestRegistry();                   // or { auth: { user, password } }
 *   const image = buildTestImage({ files: { 'etc/marker': 'X' } }); // an OCI layout with one tag
 *   const ref = pushTestImage(image, registry, 'team/x:1');        // '127.0.0.1:<port>/team/x:1'
 *   registry.blobFetches(digestOfLayer)                             // how often a blob was served
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const imageToolsAvailable = ['docker-registry', 'skopeo', 'umoci', 'busybox'].every((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
if (!imageToolsAvailable && process.env.CI) throw new Error('the image tools are missing on this CI machine (scripts/ci/debian-packages.txt)');

export interface TestRegistry {
  /** `127.0.0.1:<port>`: the registry part of image references. */
  host: string;
  /** Its storage directory (a test may corrupt a blob there). */
  storage: string;
  /** How many times the registry served `GET …/blobs/<digest>` so far. */
  blobFetches(digest: string): number;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startTestRegistry(options: { auth?: { user: string; password: string } } = {}): Promise<TestRegistry> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-registry-'));
  const storage = path.join(dir, 'storage');
  const port = await freePort();
  const lines = [
    'version: 0.1',
    'log:',
    '  level: info',
    '  accesslog:',
    '    disabled: false',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${storage}`,
    'http:',
    `  addr: 127.0.0.1:${port}`,
  ];
  if (options.auth) {
    const htpasswd = path.join(dir, 'htpasswd');
    execFileSync('htpasswd', ['-Bbc', htpasswd, options.auth.user, options.auth.password], { stdio: 'ignore' });
    lines.push('auth:', '  htpasswd:', '    realm: test', `    path: ${htpasswd}`);
  }
  fs.writeFileSync(path.join(dir, 'config.yml'), lines.join('\n') + '\n');
  let log = '';
  const child: ChildProcess = spawn('docker-registry', ['serve', path.join(dir, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/v2/`).then(
      (r) => r.status === 200 || r.status === 401,
      () => false,
    );
    if (up) break;
    if (i > 200 || child.exitCode !== null) throw new Error(`docker-registry did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    host: `127.0.0.1:${port}`,
    storage,
    blobFetches: (digest) => log.split('\n').filter((line) => line.includes(`"GET /v2/`) && line.includes(`/blobs/${digest} `) && / 200 /.test(line)).length,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestImageSpec {
  /** Files of the image (path relative to its root → content). busybox is always at /bin with sh, ls, cat, id, env. */
  files?: Record<string, string>;
  /** Files of `files` to make executable. */
  executables?: string[];
  env?: string[];
  workingDir?: string;
  /** Extra layers on top, as tar files (a crafted layer). */
  extraLayers?: string[];
  /** Bytes of incompressible random data to add (a bigger image). */
  randomBytes?: number;
}

export interface TestImage {
  /** The OCI layout dir and its tag (`oci:<layout>:<tag>`). */
  layout: string;
  tag: string;
  /** Digests (sha256:…) of its layer blobs. */
  layers(): string[];
  remove(): void;
}

const BUSYBOX_APPLETS = ['sh', 'ls', 'cat', 'id', 'env', 'echo', 'true', 'pwd', 'test', 'stat', 'find', 'wc', 'head', 'grep', 'sleep', 'sed', 'mount'];

export function buildTestImage(spec: TestImageSpec = {}): TestImage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-image-'));
  const layout = path.join(dir, 'layout');
  const tag = 'built';
  const umoci = (...args: string[]) => execFileSync('umoci', args, { stdio: 'pipe' });
  umoci('init', '--layout', layout);
  umoci('new', '--image', `${layout}:${tag}`);
  const rootfs = path.join(dir, 'rootfs');
  fs.mkdirSync(path.join(rootfs, 'bin'), { recursive: true });
  fs.copyFileSync(fs.realpathSync('/bin/busybox'), path.join(rootfs, 'bin', 'busybox'));
  fs.chmodSync(path.join(rootfs, 'bin', 'busybox'), 0o755);
  for (const applet of BUSYBOX_APPLETS) fs.symlinkSync('busybox', path.join(rootfs, 'bin', applet));
  for (const [file, content] of Object.entries(spec.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(rootfs, file)), { recursive: true });
    fs.writeFileSync(path.join(rootfs, file), content, { mode: spec.executables?.includes(file) ? 0o755 : 0o644 });
  }
  if (spec.randomBytes) {
    const blobDir = path.join(rootfs, 'opt', 'random');
    fs.mkdirSync(blobDir, { recursive: true });
    const chunk = 4 * 1024 * 1024;
    for (let i = 0, left = spec.randomBytes; left > 0; i++, left -= chunk) fs.writeFileSync(path.join(blobDir, `r${i}`), randomBytes(Math.min(chunk, left)));
  }
  umoci('insert', '--image', `${layout}:${tag}`, rootfs, '/');
  for (const layer of spec.extraLayers ?? []) umoci('raw', 'add-layer', '--image', `${layout}:${tag}`, layer);
  const config = ['config', '--image', `${layout}:${tag}`];
  for (const variable of spec.env ?? ['PATH=/bin']) config.push('--config.env', variable);
  if (spec.workingDir) config.push('--config.workingdir', spec.workingDir);
  umoci(...config);
  return {
    layout,
    tag,
    layers() {
      const index = JSON.parse(fs.readFileSync(path.join(layout, 'index.json'), 'utf8')) as {
        manifests: Array<{ digest: string; annotations?: Record<string, string> }>;
      };
      const entry = index.manifests.find((m) => m.annotations?.['org.opencontainers.image.ref.name'] === tag)!;
      const manifest = JSON.parse(fs.readFileSync(path.join(layout, 'blobs', ...entry.digest.split(':')), 'utf8')) as { layers: Array<{ digest: string }> };
      return manifest.layers.map((l) => l.digest);
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Pushes the image as `<registry>/<name>` and returns that reference. */
export function pushTestImage(image: TestImage, registry: TestRegistry, name: string, auth?: { user: string; password: string }): string {
  const ref = `${registry.host}/${name}`;
  const args = ['--insecure-policy', 'copy', '--quiet', '--dest-tls-verify=false'];
  if (auth) args.push('--dest-creds', `${auth.user}:${auth.password}`);
  execFileSync('skopeo', [...args, `oci:${image.layout}:${image.tag}`, `docker://${ref}`], {
    stdio: 'pipe',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() },
  });
  return ref;
}

/** A tar layer with crafted entries (python3's tarfile writes what tar(1) refuses to). */
export function craftLayer(
  file: string,
  entries: Array<{ name: string; type?: 'file' | 'symlink' | 'hardlink' | 'char' | 'fifo'; mode?: number; data?: string; link?: string }>,
): string {
  const script = `
import io, json, sys, tarfile
types = {'file': tarfile.REGTYPE, 'symlink': tarfile.SYMTYPE, 'hardlink': tarfile.LNKTYPE, 'char': tarfile.CHRTYPE, 'fifo': tarfile.FIFOTYPE}
with tarfile.open(sys.argv[1], 'w') as tar:
    for e in json.loads(sys.argv[2]):
        info = tarfile.TarInfo(e['name']); info.type = types[e.get('type', 'file')]; info.mode = e.get('mode', 0o644)
        data = e.get('data', '').encode()
        if info.type == tarfile.REGTYPE: info.size = len(data)
        if 'link' in e: info.linkname = e['link']
        if info.type == tarfile.CHRTYPE: info.devmajor, info.devminor = 1, 3
        tar.addfile(info, io.BytesIO(data) if info.type == tarfile.REGTYPE else None)
`;
  execFileSync('python3', ['-c', script, file, JSON.stringify(entries)]);
  return file;
}
