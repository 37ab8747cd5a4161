#!/usr/bin/env tsx
/**
 * `agent-runs`: the command-line client of the Agent Runs API, built on @agent-runs/sdk.
 *
 * Exit codes: 0 success; 1 an API error (the problem detail is printed on stderr) or a usage error
 * (commander's code); 2 the API could not be reached; 3 `run --wait` saw the run end other than
 * SUCCEEDED; 130 interrupted.
 */
import { DEFAULT_BASE_URL } from '@agent-runs/sdk';
import { Command, Option } from 'commander';
import { registerArtifactsCommands } from './commands/artifacts';
import { registerAuditCommands } from './commands/audit';
import { registerAgentsCommands } from './commands/agents';
import { registerAutomationsCommands } from './commands/automations';
import { registerBudgetCommands } from './commands/budgets';
import { registerDeliveriesCommands } from './commands/deliveries';
import { registerEnvironmentsCommands } from './commands/environments';
import { registerFactoriesCommands } from './commands/factories';
import { registerNotificationsCommands } from './commands/notifications';
import { registerRunCommand } from './commands/run';
import { registerRunsCommands } from './commands/runs';
import { registerSchedulesCommands } from './commands/schedules';
import { registerWebhooksCommands } from './commands/webhooks';
import { CLI_VERSION, type GlobalOptions } from './context';
import { reportError, UsageError } from './errors';

export function buildProgram(): Command {
  const program = new Command('agent-runs')
    .description('Command-line client of the Agent Runs API')
    .version(CLI_VERSION)
    .addOption(new Option('--api-key <key>', 'API key').env('AGENT_RUNS_API_KEY'))
    .addOption(
      new Option('--base-url <url>', `REST root, ending in /api/v1 (default: ${DEFAULT_BASE_URL})`).env(
        'AGENT_RUNS_BASE_URL',
      ),
    )
    .option('--json', "print the API's JSON instead of tables (for scripts)")
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true });

  registerRunCommand(program);
  registerRunsCommands(program);
  registerArtifactsCommands(program);
  registerAgentsCommands(program);
  registerEnvironmentsCommands(program);
  registerFactoriesCommands(program);
  registerWebhooksCommands(program);
  registerDeliveriesCommands(program);
  registerAutomationsCommands(program);
  registerSchedulesCommands(program);
  registerNotificationsCommands(program);
  registerBudgetCommands(program);
  registerAuditCommands(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    // Found after parsing, but still about how the command was called: report it the way commander does.
    if (err instanceof UsageError) program.error(`error: ${err.message}`);
    const { baseUrl } = program.opts<GlobalOptions>();
    process.exitCode = reportError(err, baseUrl || DEFAULT_BASE_URL);
  }
}

await main(process.argv);
