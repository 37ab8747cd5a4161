/**
 * The runner a server process uses (settings.runner; docs/wire.md §Operating the server).
 */
import type { Settings } from '../../settings';
import type { Runner } from '../runner';
import { CommandRunner } from './command';
import { EchoRunner } from './echo';
import { createModelRunner, modelRunnerOptions } from './model';

export function createRunner(settings: Settings): Runner {
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
