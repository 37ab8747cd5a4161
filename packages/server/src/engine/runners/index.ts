/**
 * The runner a server process uses (settings.runner; docs/wire.md §Operating the server), and beside it
 * the harness runner for every run whose `config.harness.type` names a third-party CLI, whatever RUNNER
 * is (docs/decisions.md §Third-party harnesses).
 */
import type { Settings } from '../../settings';
import { harnessTypeOf, HarnessRunner } from '../harnesses/runner';
import type { Runner } from '../runner';
import { CommandRunner } from './command';
import { EchoRunner } from './echo';
import { createModelRunner, modelRunnerOptions } from './model';

function createServerRunner(settings: Settings): Runner {
  switch (settings.runner) {
    case 'echo':
      return new EchoRunner(settings.echoDelayMs);
    case 'command':
      if (!settings.agentCommand) throw new Error('RUNNER=command needs AGENT_COMMAND');
      return new CommandRunner(settings.agentCommand);
    case 'model':
      return createModelRunner(modelRunnerOptions(settings));
  }
}

/** RUNNER's runner for runs of the `oz` harness (or none), the harness runner for the others. */
export function withHarnesses(serverRunner: Runner, harnessRunner: Runner): Runner {
  return {
    name: serverRunner.name,
    run: (ctx) => (harnessTypeOf(ctx.config) === undefined ? serverRunner : harnessRunner).run(ctx),
  };
}

export function createRunner(settings: Settings): Runner {
  return withHarnesses(createServerRunner(settings), new HarnessRunner(settings));
}
