/**
 * The worker's "environment" step: prepares the run's working directory from its cloud environment
 * (`config.environment_id`): its image first (engine/images/run-image.ts: every later process of the run
 * runs in it), then its setup commands and variables (engine/environment-setup.ts). A failing step
 * throws an error carrying `statusMessage` (error_code `image_unavailable` or
 * `environment_setup_failed`) and the worker FAILS the run with it.
 */
import type { ServerContext } from '../context';
import { prepareEnvironmentForRun } from './environment-setup';
import { prepareRunImage } from './images/run-image';
import type { RunRow } from '../runs/repository';
import type { RunSandbox } from './sandbox';

export type PrepareRunEnvironment = (
  ctx: ServerContext,
  run: RunRow,
  sandbox: RunSandbox,
  signal: AbortSignal,
) => Promise<{ env: Record<string, string> }>;

export const prepareRunEnvironment: PrepareRunEnvironment = async (ctx, run, sandbox, signal) => {
  await prepareRunImage(ctx, run, sandbox, signal);
  return prepareEnvironmentForRun(ctx, run, sandbox, signal);
};
