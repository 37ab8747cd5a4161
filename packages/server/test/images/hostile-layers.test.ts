/**
 * Hostile image layers through the public API (docs/sandbox.md §Image root): `../` names, absolute and
 * relative symlinks out followed by writes through them, a device node, a FIFO, setuid and setgid files
 * and a whiteout aimed outside are neutralised — nothing lands outside the cache entry, nothing in the
 * image keeps a setuid bit or is a device, and the image's mounts are nosuid — while a hard link out of
 * the image is refused (`image_unavailable`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestImage, craftLayer, imageToolsAvailable, pushTestImage, startTestRegistry, type TestImage, type TestRegistry } from '../support/registry';
import { sandboxAvailable } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';

const AGENT_COMMAND = "sed -n '/^#!begin$/,/^#!end$/p' | sh";
const UP = '../../../../../../../../../..';

describe.skipIf(!sandboxAvailable || !imageToolsAvailable)('hostile image layers', () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'images-escape-'));
  const layers = fs.mkdtempSync(path.join(os.tmpdir(), 'images-layers-'));
  let registry: TestRegistry;
  let server: TestServer;
  let admin: RestClient;
  const images: TestImage[] = [];

  beforeAll(async () => {
    fs.writeFileSync(path.join(outside, 'victim'), 'still here');
    registry = await startTestRegistry();
    server = await startTestServer({ env: { RUNNER: 'command', AGENT_COMMAND, IMAGE_REGISTRIES: `http://${registry.host}` } });
    admin = restClient(server, server.adminKey);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await registry?.close();
    for (const image of images) image.remove();
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(layers, { recursive: true, force: true });
  });

  async function runIn(image: TestImage, name: string, lines: string) {
    images.push(image);
    const ref = pushTestImage(image, registry, `hostile/${name}:1`);
    const env = await admin.post('/agent/environments', { name: `hostile-${name}-${randomBytes(3).toString('hex')}`, docker_image: ref });
    expect(env.status, JSON.stringify(env.body)).toBe(201);
    const created = await admin.post('/agent/runs', { prompt: `#!begin\n${lines}\n#!end`, config: { environment_id: env.body.uid } });
    let run: any;
    for (let i = 0; i < 600; i++) {
      run = (await admin.get(`/agent/runs/${created.body.run_id}`)).body;
      if (['SUCCEEDED', 'FAILED', 'ERROR'].includes(run.state)) break;
      await delay(50);
    }
    const output = JSON.stringify((await admin.get(`/agent/runs/${created.body.run_id}/conversation`)).body);
    return { run, output, ref };
  }

  it('traversal, escaping symlinks, devices, FIFOs, setuid bits and outside whiteouts are neutralised', async () => {
    const layer = craftLayer(path.join(layers, 'hostile.tar'), [
      { name: `${UP}${outside}/ESCAPED-BY-DOTS`, data: 'x' },
      { name: 'abs-link', type: 'symlink', link: outside },
      { name: 'abs-link/ESCAPED-THROUGH-ABSOLUTE', data: 'x' },
      { name: 'rel-link', type: 'symlink', link: `${UP}${outside}` },
      { name: 'rel-link/ESCAPED-THROUGH-RELATIVE', data: 'x' },
      { name: `${UP}${outside}/.wh.victim` },
      { name: 'dev-null', type: 'char', mode: 0o666 },
      { name: 'fifo', type: 'fifo' },
      { name: 'suid', data: '#!/bin/sh\nid\n', mode: 0o4755 },
      { name: 'sgid', data: 'x', mode: 0o2755 },
    ]);
    const { run, output } = await runIn(
      buildTestImage({ extraLayers: [layer] }),
      'mixed',
      [
        'stat -c "%n %a %F" /suid /sgid /dev-null',
        'test -c /dev-null && echo DEVICE-KEPT || echo no-device',
        'test -e /fifo && echo FIFO-KEPT || echo no-fifo',
        'grep " /bin " /proc/self/mountinfo',
      ].join('\n'),
    );
    expect(run.state, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(output).toContain('/suid 755 regular file');
    expect(output).toContain('/sgid 755 regular file');
    expect(output).toContain('no-device');
    expect(output).toContain('no-fifo');
    expect(output).toMatch(/ \/bin [^"]*nosuid/);
    // Nothing landed outside the cache entry, and the outside whiteout removed nothing.
    expect(fs.readdirSync(outside)).toEqual(['victim']);
    expect(fs.readFileSync(path.join(outside, 'victim'), 'utf8')).toBe('still here');
    // In the cache, each stays inside the entry's rootfs.
    const rootfs = path.join(server.ctx.settings.dataDir, 'images', run.image_digest.slice('sha256:'.length), 'rootfs');
    expect(fs.readlinkSync(path.join(rootfs, 'abs-link'))).toBe(outside);
    expect(fs.lstatSync(path.join(rootfs, 'suid')).mode & 0o7000).toBe(0);
  }, 60_000);

  it('a hard link out of the image is refused: image_unavailable', async () => {
    const layer = craftLayer(path.join(layers, 'hardlink.tar'), [{ name: 'hard', type: 'hardlink', link: `${UP}/etc/passwd` }]);
    const { run, ref } = await runIn(buildTestImage({ extraLayers: [layer] }), 'hardlink', 'echo never');
    expect(run.state).toBe('FAILED');
    expect(run.status_message.error_code).toBe('image_unavailable');
    expect(run.status_message.message).toContain(`Image ${ref} is unavailable: `);
    expect(fs.existsSync(path.join(server.ctx.settings.dataDir, 'images', '.staging'))).toBe(true);
    expect(fs.readdirSync(path.join(server.ctx.settings.dataDir, 'images', '.staging'))).toEqual([]);
  }, 60_000);
});
