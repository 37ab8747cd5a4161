/**
 * Where a run's CLI comes from (engine/harnesses/catalog.ts): the image's PATH first, then the server's
 * pinned install (bound read-only; its host path itself with SANDBOX=none), else nowhere; and what the
 * listing and the refusal say.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_MOUNT, harnessInstallDir, harnessOffers, harnessRefusal, locateHarness } from '../../src/engine/harnesses/catalog';
import { codexAdapter } from '../../src/engine/harnesses/codex';

function executable(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
}

describe('locating a harness CLI', () => {
  let root: string;
  let harnessesDir: string;
  let rootfs: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-catalog-'));
    harnessesDir = path.join(root, 'harnesses');
    rootfs = path.join(root, 'rootfs');
    fs.mkdirSync(rootfs);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const image = () => ({ rootfs, env: { PATH: '/usr/local/bin:/usr/bin' } });
  const installed = () => executable(path.join(harnessInstallDir(harnessesDir, codexAdapter), codexAdapter.executable(process.arch)!));

  it('finds nothing, and refuses the run, when neither the image nor the server has it', () => {
    expect(locateHarness(harnessesDir, codexAdapter, image(), true)).toBeUndefined();
    expect(harnessOffers(harnessesDir).find((h) => h.type === 'codex')).toMatchObject({ installed: false, version: codexAdapter.version });
    expect(harnessRefusal(harnessesDir, 'codex', false)).toMatch(/Codex is not installed on this server/);
    // An image may hold it: the run starts, and fails harness_unavailable at start if it does not.
    expect(harnessRefusal(harnessesDir, 'codex', true)).toBeUndefined();
    expect(harnessRefusal(harnessesDir, 'aider', true)).toMatch(/not a harness this server offers/);
  });

  it("binds the server's install read-only, or uses its host path without an isolated root", () => {
    installed();
    const prefix = harnessInstallDir(harnessesDir, codexAdapter);
    expect(locateHarness(harnessesDir, codexAdapter, undefined, true)).toEqual({
      executable: `${HARNESS_MOUNT}/codex/${codexAdapter.executable(process.arch)}`,
      binds: [{ hostPath: prefix, sandboxPath: `${HARNESS_MOUNT}/codex`, readOnly: true }],
      source: 'server',
    });
    expect(locateHarness(harnessesDir, codexAdapter, undefined, false)).toEqual({
      executable: path.join(prefix, codexAdapter.executable(process.arch)!),
      binds: [],
      source: 'server',
    });
    expect(harnessOffers(harnessesDir).find((h) => h.type === 'codex')).toMatchObject({ installed: true });
    expect(harnessRefusal(harnessesDir, 'codex', false)).toBeUndefined();
  });

  it("prefers the image's own CLI on its PATH (a symlink counts), over the server's install", () => {
    installed();
    fs.mkdirSync(path.join(rootfs, 'usr/bin'), { recursive: true });
    fs.symlinkSync('/opt/codex/bin/codex', path.join(rootfs, 'usr/bin/codex'));
    expect(locateHarness(harnessesDir, codexAdapter, image(), true)).toEqual({ executable: '/usr/bin/codex', binds: [], source: 'image' });
    executable(path.join(rootfs, 'usr/local/bin/codex'));
    expect(locateHarness(harnessesDir, codexAdapter, image(), true)?.executable).toBe('/usr/local/bin/codex');
  });
});
