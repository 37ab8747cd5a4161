/**
 * The worker's "environment" step: prepares the run's working directory from its cloud environment
 * (`config.environment_id`: repositories checked out (engine/repositories/), then setup commands,
 * environment variables). The work itself is the agent
 * engineer's engine/environment-setup.ts; a failing setup throws an error carrying `statusMessage`
 * (error_code `environment_setup_failed`) and the worker FAILS the run with it.
 */
import path from 'node:path';
import type { ServerContext } from '../context';
import { prepareEnvironmentForRun } from './environment-setup';
import type { RunRow } from '../runs/repository';
import { checkoutRepositories } from './repositories';
import type { RunSandbox } from './sandbox';
import { runWorkDirRoot } from './workdir-retention';

export type PrepareRunEnvironment = (
  ctx: ServerContext,
  run: RunRow,
  sandbox: RunSandbox,
  signal: AbortSignal,
) => Promise<{ env: Record<string, string> }>;

export const prepareRunEnvironment: PrepareRunEnvironment = (ctx, run, sandbox, signal) =>
  prepareEnvironmentForRun(ctx, run, sandbox, signal, {
    beforeSetup: (environment) => checkoutRepositories(ctx, run, path.join(runWorkDirRoot(ctx), run.id), environment, sandbox, signal),
  });
