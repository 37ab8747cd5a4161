/**
 * The worker's "environment" step: prepares the run's working directory from its cloud environment
 * (`config.environment_id`: setup commands, environment variables). The work itself is the agent
 * engineer's engine/environment-setup.ts; a failing setup throws an error carrying `statusMessage`
 * (error_code `environment_setup_failed`) and the worker FAILS the run with it.
 */
import type { ServerContext } from '../context';
import { prepareEnvironmentForRun } from './environment-setup';
import type { RunRow } from '../runs/repository';
import type { RunSandbox } from './sandbox';

export type PrepareRunEnvironment = (
  ctx: ServerContext,
  run: RunRow,
  sandbox: RunSandbox,
  signal: AbortSignal,
) => Promise<{ env: Record<string, string> }>;

export const prepareRunEnvironment: PrepareRunEnvironment = prepareEnvironmentForRun;
