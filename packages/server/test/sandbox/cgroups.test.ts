/**
 * Sandbox cgroups are the server's own and do not pile up on the host (engine/sandbox/cgroups.ts): a
 * sandbox's cgroup goes when its process does, the parent goes at shutdown, and a parent left behind by a
 * process that was killed is removed by the next server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectCgroups } from '../../src/engine/sandbox/cgroups';

const probe = detectCgroups(`agent-runs-${process.pid}`);

describe.skipIf(!probe)('sandbox cgroups', () => {
  it('removes a sandbox cgroup once its processes are gone, and the parent when the server shuts down', async () => {
    const manager = detectCgroups(`agent-runs-${process.pid}`)!;
    const cgroup = manager.create('test-remove', { memoryBytes: 64 * 1024 * 1024, maxProcesses: 8 });
    const dir = path.dirname(cgroup.procsFiles[0]!);
    expect(fs.existsSync(dir)).toBe(true);
    await cgroup.remove();
    expect(fs.existsSync(dir)).toBe(false);
    manager.removeParents();
    expect(fs.existsSync(path.dirname(dir))).toBe(false);
  });

  it('removes the empty parent a dead process left behind', () => {
    const manager = detectCgroups(`agent-runs-${process.pid}`)!;
    const parent = path.dirname(path.dirname(manager.create('test-stale', { memoryBytes: 64 * 1024 * 1024, maxProcesses: 8 }).procsFiles[0]!));
    const stale = path.join(path.dirname(parent), 'agent-runs-4194303'); // above any pid this kernel hands out by default
    fs.mkdirSync(path.join(stale, 'orphan'), { recursive: true });
    manager.removeParents();
    detectCgroups(`agent-runs-${process.pid}`);
    expect(fs.existsSync(stale)).toBe(false);
  });
});
