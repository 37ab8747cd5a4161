import type { AmbientAgentConfig, RunAgentRequest } from '@agent-runs/sdk';
import type { Command } from 'commander';
import { contextOf } from '../context';
import { formatFields } from '../output';
import { formatRun } from './runs';

interface RunOptions {
  prompt: string;
  name?: string;
  model?: string;
  title?: string;
  wait?: boolean;
}

/** `run`: start a run, optionally waiting until it is terminal. */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('start a run')
    .requiredOption('--prompt <text>', 'the prompt the agent executes')
    .option('--name <name>', 'config name (AmbientAgentConfig.name): a label to group and filter runs by')
    .option('--model <modelId>', 'the model (AmbientAgentConfig.model_id; server default DEFAULT_MODEL_ID)')
    .option('--title <title>', 'title (default: the first line of the prompt)')
    .option('--wait', 'wait until the run is terminal and print it (exit code 0 whatever the final state)')
    .action(async (options: RunOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const body = runRequest(options);
      if (options.wait) {
        const run = await client.agent.runs.createAndWait(body);
        out.result(run, () => formatRun(run));
        return;
      }
      const created = await client.agent.runs.create(body);
      out.result(created, () => formatFields([['run_id', created.run_id], ['state', created.state]]));
    });
}

/** The createRun body: `config` only when a config flag was given, so the server's defaults apply. */
export function runRequest(options: RunOptions): RunAgentRequest {
  const config: { name?: string; model_id?: string } = {};
  if (options.name !== undefined) config.name = options.name;
  if (options.model !== undefined) config.model_id = options.model;
  return {
    prompt: options.prompt,
    ...(options.title !== undefined ? { title: options.title } : {}),
    // The generated type marks the resolved limits required (they have defaults); on input they are optional.
    ...(Object.keys(config).length > 0 ? { config: config as AmbientAgentConfig } : {}),
  };
}
