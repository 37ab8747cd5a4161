/**
 * The worker's "environment" step: prepares the run's working directory from its cloud environment
 * (`config.environment_id`): its image first (engine/images/run-image.ts: every later process of the run
 * runs in it), then its repositories checked out (engine/repositories/), then its setup commands and
 * variables (engine/environment-setup.ts). A failing step throws an error carrying `statusMessage`
 * (error_code `image_unavailable`, `repository_unavailable` or `environment_setup_failed`) and the worker
 * FAILS the run with it.
 */
import path from 'node:path';
import type { ServerContext } from '../context';
import { prepareEnvironmentForRun } from './environment-setup';
import { prepareRunImage } from './images/run-image';
import type { RunRow } from '../runs/repository';
import { checkoutRepositories } from './repositories';
import type { RunSandbox } from './sandbox';
import { runWorkDirRoot } from './workdir-retention';
import { inSpan } from '../telemetry/spans';

export type PrepareRunEnvironment = (ctx: ServerContext, run: RunRow, sandbox: RunSandbox, signal: AbortSignal) => Promise<{ env: Record<string, string> }>;

export const prepareRunEnvironment: PrepareRunEnvironment = async (ctx, run, sandbox, signal) => {
  await inSpan('run image', {}, () => prepareRunImage(ctx, run, sandbox, signal));
  // The setup span covers the clone that comes first in it (telemetry: one span per step of the run's life).
  return inSpan('run setup', {}, () =>
    prepareEnvironmentForRun(ctx, run, sandbox, signal, {
      beforeSetup: (environment) =>
        inSpan('run clone', {}, () => checkoutRepositories(ctx, run, path.join(runWorkDirRoot(ctx), run.id), environment, sandbox, signal)),
    }),
  );
};
