/**
 * Working-directory retention. A run's directory under DATA_DIR/runs/<run id> holds its attachments and
 * whatever the agent wrote there; it is kept after the run ends so that a follow-up which resumes the run
 * finds its files. Once the run has been terminal and unchanged for RUN_WORKDIR_RETENTION_DAYS, the
 * directory is removed (a later follow-up starts in a fresh one, with the run's attachments written
 * again). Directories of runs that no longer exist (their team was deleted) go too.
 *
 * SERVICE-WIDE QUERY (retention): directories are named by run id alone, so the runs are looked up by id
 * without a team (runs/repository.ts findRunIdsKeepingWorkDirServiceWide).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { startRetentionJob, type PeriodicJob } from '../periodic-job';
import { findRunIdsKeepingWorkDirServiceWide } from '../runs/repository';
import { repositoriesRoot } from './repositories/git';

type RetentionDeps = Pick<ServerContext, 'db' | 'clock' | 'settings' | 'sandbox'>;

/** Ids per lookup query (well under every database's bound-parameter limit). */
const LOOKUP_BATCH = 500;

export const runWorkDirRoot = (ctx: Pick<ServerContext, 'settings'>): string => path.join(ctx.settings.dataDir, 'runs');

/** Removes the working directories that are past retention; returns the run ids whose directory went. */
export async function pruneRunWorkDirs(ctx: RetentionDeps): Promise<string[]> {
  const root = runWorkDirRoot(ctx);
  let names: string[];
  try {
    names = (await fs.readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const cutoff = toTimestamp(new Date(ctx.clock.now().getTime() - ctx.settings.windows.runWorkDirRetentionDays * 86_400_000));
  const removed: string[] = [];
  for (let i = 0; i < names.length; i += LOOKUP_BATCH) {
    const batch = names.slice(i, i + LOOKUP_BATCH);
    const keep = new Set(await findRunIdsKeepingWorkDirServiceWide(ctx.db, batch, cutoff));
    for (const name of batch) {
      if (keep.has(name)) continue;
      const dir = path.join(root, name);
      await ctx.sandbox.discardWorkspace(name, dir); // its disk: unmounted first, then deleted
      await fs.rm(dir, { recursive: true, force: true });
      // The run's server-owned git directories (engine/repositories/) go with its checkouts.
      await fs.rm(path.join(repositoriesRoot(ctx), name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

/** Runs `pruneRunWorkDirs` at start and every RETENTION_INTERVAL_SECONDS until stopped. */
export function startWorkDirRetention(ctx: RetentionDeps & Pick<ServerContext, 'log'>): PeriodicJob {
  return startRetentionJob(ctx, 'run working directory', async () => ({ removed: (await pruneRunWorkDirs(ctx)).length }));
}
