import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, toTimestamp } from '../../src/clock';
import { pruneRunWorkDirs, startEngine, type Engine } from '../../src/engine';
import { acceptFollowup } from '../../src/runs/transitions';
import type { RunContext, RunOutcome, Runner } from '../../src/engine/runner';
import { runWorkDir } from '../../src/engine/worker';
import { runWorkDirRoot } from '../../src/engine/workdir-retention';
import { withRunWorkspace } from '../support/sandbox';
import { testDatabases } from '../support/databases';
import { createRun, useEngineDatabase, waitFor, waitForState, type EngineTestContext } from './helpers';

const DAY_MS = 86_400_000;

/** The context as seen `days` from now (the retention cut-off moves, the runs do not). */
const later = (ctx: EngineTestContext, days: number): EngineTestContext => ({
  ...ctx,
  clock: { now: () => new Date(Date.now() + days * DAY_MS) },
});

function makeWorkDir(ctx: EngineTestContext, runId: string): string {
  const dir = runWorkDir(ctx, runId);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'output.txt'), 'agent output');
  return dir;
}

describe.each(testDatabases())('run working-directory retention (%s)', (kind) => {
  const fx = useEngineDatabase(kind, { clock: () => systemClock, settings: { workerConcurrency: 1 } });
  let engine: Engine | undefined;
  // The data directory outlives each test's runs (one database per file): start without directories.
  beforeEach(() => fs.rmSync(runWorkDirRoot(fx.ctx), { recursive: true, force: true }));
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('removes the directories of runs terminal and unchanged for RUN_WORKDIR_RETENTION_DAYS, and of runs that no longer exist', async () => {
    const { ctx, team } = fx;
    const days = ctx.settings.windows.runWorkDirRetentionDays;
    const old = toTimestamp(new Date(Date.now() - (days + 1) * DAY_MS));
    const oldSucceeded = await createRun(ctx, team, { state: 'SUCCEEDED', updated_at: old, completed_at: old });
    const oldCancelled = await createRun(ctx, team, { state: 'CANCELLED', updated_at: old });
    const recentFailed = await createRun(ctx, team, { state: 'FAILED' });
    // Not terminal: kept however old (a worker may be using it, or will again).
    const oldBlocked = await createRun(ctx, team, { state: 'BLOCKED', updated_at: old });
    const dirs = {
      oldSucceeded: makeWorkDir(ctx, oldSucceeded.id),
      oldCancelled: makeWorkDir(ctx, oldCancelled.id),
      recentFailed: makeWorkDir(ctx, recentFailed.id),
      oldBlocked: makeWorkDir(ctx, oldBlocked.id),
      orphan: makeWorkDir(ctx, 'run-of-a-deleted-team'),
    };

    const removed = await pruneRunWorkDirs(ctx);

    expect(removed.sort()).toEqual([oldSucceeded.id, oldCancelled.id, 'run-of-a-deleted-team'].sort());
    expect(fs.existsSync(dirs.oldSucceeded)).toBe(false);
    expect(fs.existsSync(dirs.oldCancelled)).toBe(false);
    expect(fs.existsSync(dirs.orphan)).toBe(false);
    expect(fs.readFileSync(path.join(dirs.recentFailed, 'output.txt'), 'utf8')).toBe('agent output');
    expect(fs.existsSync(dirs.oldBlocked)).toBe(true);
    // The recent one goes once it, too, is past retention.
    expect(await pruneRunWorkDirs(later(ctx, days + 1))).toEqual([recentFailed.id]);
  });

  it("unmounts a run's workspace disk left mounted (by a server that died mid-run) and deletes its image with the directory", async (test) => {
    const { ctx, team } = fx;
    if (ctx.sandbox.status.disk !== 'loop ext4') test.skip(); // only a root server mounts workspace disks
    const old = toTimestamp(new Date(Date.now() - (ctx.settings.windows.runWorkDirRetentionDays + 1) * DAY_MS));
    const run = await createRun(ctx, team, { state: 'SUCCEEDED', updated_at: old, completed_at: old });
    const abandoned = ctx.sandbox.forRun(run.id, runWorkDir(ctx, run.id));
    await abandoned.openWorkspace();
    fs.writeFileSync(path.join(runWorkDir(ctx, run.id), 'output.txt'), 'agent output');
    const image = path.join(ctx.settings.dataDir, 'workspace-disks', `${run.id}.ext4`);
    expect(fs.existsSync(image)).toBe(true);

    expect(await pruneRunWorkDirs(ctx)).toEqual([run.id]);
    expect(fs.existsSync(runWorkDir(ctx, run.id))).toBe(false);
    expect(fs.existsSync(image)).toBe(false);
    await abandoned.close();
  });

  it('a follow-up to a run whose directory was pruned starts in a fresh directory with its attachments', async () => {
    const { ctx, team } = fx;
    const seen: string[][] = [];
    const runner: Runner = {
      name: 'echo',
      async run(rc: RunContext): Promise<RunOutcome> {
        seen.push(fs.readdirSync(rc.workDir).sort());
        fs.writeFileSync(path.join(rc.workDir, `turn-${seen.length}.txt`), 'written by the agent');
        return { state: 'SUCCEEDED' };
      },
    };
    engine = startEngine(ctx, { pollIntervalMs: 20, sweeper: false, workDirRetention: false, runner });
    ctx.notifyRunQueued = () => engine?.notifyRunQueued();
    const run = await createRun(ctx, team, {
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('remember this') }],
    });
    ctx.notifyRunQueued();
    await waitForState(ctx, run, ['SUCCEEDED']);

    const days = ctx.settings.windows.runWorkDirRetentionDays;
    expect(await pruneRunWorkDirs(later(ctx, days - 1))).toEqual([]);
    expect(await pruneRunWorkDirs(later(ctx, days + 1))).toEqual([run.id]);

    expect((await acceptFollowup(ctx, team, run.id, 'once more')).ok).toBe(true);
    ctx.notifyRunQueued();
    await waitFor(async () => seen.length === 2);
    await waitForState(ctx, run, ['SUCCEEDED']);
    expect(seen).toEqual([['notes.txt'], ['notes.txt']]);
    expect(await withRunWorkspace(ctx, run.id, (dir) => fs.readdirSync(dir).sort())).toEqual(['notes.txt', 'turn-2.txt']);
  });
});
