/**
 * The image cache and the sandbox's views, against a real loopback registry (engine/images/cache.ts,
 * docs/sandbox.md §Image root): least-recently-used eviction beyond IMAGE_CACHE_MB never removes an image
 * in use; two acquires of one digest at once pull it once; pull progress counts the bytes written up to the manifest's total; the credentials file is gone
 * after the pull; a process with the `host` view of a run with an image sees the host's tools and the
 * same workspace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageCache, type ImageCache, type PullProgress } from '../../src/engine/images/cache';
import { parseImageReference, type ImageReference } from '../../src/engine/images/reference';
import { createSandbox, type Sandbox } from '../../src/engine/sandbox';
import { loadSettings } from '../../src/settings';
import { buildTestImage, imageToolsAvailable, pushTestImage, startTestRegistry, type TestImage, type TestRegistry } from '../support/registry';
import { sandboxAvailable } from '../support/sandbox';

const reference = (text: string) => parseImageReference(text) as ImageReference;

describe.skipIf(!sandboxAvailable || !imageToolsAvailable)('the image cache', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-cache-'));
  let registry: TestRegistry;
  let privateRegistry: TestRegistry;
  let cache: ImageCache;
  let sandbox: Sandbox;
  const images: TestImage[] = [];
  const refs: string[] = [];
  const auth = { user: 'u', password: 'cache-test-password' };

  beforeAll(async () => {
    [registry, privateRegistry] = await Promise.all([startTestRegistry(), startTestRegistry({ auth })]);
    for (const name of ['a', 'b', 'c']) {
      const image = buildTestImage({ files: { [`etc/${name}`]: name }, ...(name === 'c' ? { randomBytes: 2 * 1024 * 1024 } : {}) });
      images.push(image);
      refs.push(pushTestImage(image, name === 'b' ? privateRegistry : registry, `lru/${name}:1`, name === 'b' ? auth : undefined));
    }
    const settings = loadSettings({ DATA_DIR: dataDir, IMAGE_CACHE_MB: '0', IMAGE_REGISTRIES: `http://${registry.host},http://${privateRegistry.host}` });
    cache = createImageCache(settings);
    sandbox = createSandbox(settings, pino({ level: 'silent' }));
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
    await Promise.all([registry?.close(), privateRegistry?.close()]);
    for (const image of images) image.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('evicts the least recently used images beyond IMAGE_CACHE_MB, never one in use; counts pull progress; drops the credentials file', async () => {
    const authDirs = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('agent-runs-registry-auth-'));
    const authDirsBefore = authDirs();
    const a = await cache.acquire({ reference: reference(refs[0]!) });
    const b = await cache.acquire({ reference: reference(refs[1]!), credentials: `${auth.user}:${auth.password}` });
    expect(authDirs()).toEqual(authDirsBefore);
    b.release();
    const progress: PullProgress[] = [];
    const c = await cache.acquire({ reference: reference(refs[2]!), onProgress: (p) => progress.push(p) });
    // The cache holds 0 MB beyond what is in use: b went; a (in use) and c (just pulled) stay.
    expect((await cache.entries()).sort()).toEqual([a.digest, c.digest].sort());
    const last = progress.at(-1)!;
    expect(last.totalBytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(last.bytes).toBeGreaterThanOrEqual(last.totalBytes!);
    // Acquiring a cached digest again pulls nothing.
    const again = await cache.acquire({ reference: reference(refs[0]!) });
    expect(again.rootfs).toBe(a.rootfs);
    for (const layer of images[0]!.layers()) expect(registry.blobFetches(layer)).toBe(1);
    a.release();
    again.release();
    c.release();
  }, 60_000);

  it('two acquires of one digest at once share one pull (single-flight)', async () => {
    const image = buildTestImage({ files: { 'etc/d': 'd' }, randomBytes: 8 * 1024 * 1024 });
    images.push(image);
    const ref = reference(pushTestImage(image, registry, 'lru/d:1'));
    const [first, second] = await Promise.all([cache.acquire({ reference: ref }), cache.acquire({ reference: ref })]);
    expect(second.rootfs).toBe(first.rootfs);
    for (const layer of image.layers()) expect(registry.blobFetches(layer)).toBe(1);
    first.release();
    second.release();
  }, 60_000);

  it("a process with the host view in a run with an image sees the host's tools and the same workspace", async () => {
    const workDir = fs.mkdtempSync(path.join(dataDir, 'run-'));
    const run = sandbox.forRun('0123456789abcdef', workDir);
    const image = await cache.acquire({ reference: reference(refs[0]!) });
    run.useImage(image);
    const output = async (view: 'run' | 'host', command: string) => {
      const proc = await run.spawn({ argv: ['/bin/sh', '-c', command], env: {}, stdin: 'ignore', wallTimeMs: 10_000, limitOutput: true, view });
      let text = '';
      proc.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await proc.exited;
      return text.trim();
    };
    expect(await output('run', 'echo $(cat /etc/a); test -e /usr/bin/env && echo host-tools || echo no-host-tools; echo from-image > shared.txt')).toBe(
      'a\nno-host-tools',
    );
    expect(await output('host', 'test -e /etc/a && echo image || echo no-image; test -e /usr/bin/env && echo host-tools; cat shared.txt')).toBe(
      'no-image\nhost-tools\nfrom-image',
    );
    await run.close();
    // The sandbox released the image when it closed: the next pull may evict it.
    const b = await cache.acquire({ reference: reference(refs[1]!), credentials: `${auth.user}:${auth.password}` });
    expect(await cache.entries()).toEqual([b.digest]);
    b.release();
  }, 60_000);
});
