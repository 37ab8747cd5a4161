/**
 * `agent-runs`: the command-line client of the Agent Runs API, built on @agent-runs/sdk.
 *
 * Exit codes: 0 success; 1 an API error (the problem detail is printed on stderr) or a usage error
 * (commander's code); 2 the API could not be reached; 3 `run --wait` saw the run end other than
 * SUCCEEDED; 4 it stopped at BLOCKED; 130 interrupted.
 *
 * `main` runs one command line with the io it is given (io.ts) and answers the exit code;
 * bin/agent-runs.mjs calls the build of it (dist/main.js) with the process's own.
 */
import { DEFAULT_BASE_URL } from '@agent-runs/sdk';
import { Command, CommanderError, Option } from 'commander';
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
import { bindInvocation, CLI_VERSION, globalOptionsOf } from './context';
import { reportError, UsageError } from './errors';
import type { CliIo, Invocation } from './io';

export type { CliIo } from './io';
export { processIo } from './io';

/**
 * The program for one invocation. Commander's output goes to the invocation's streams and its exits
 * become CommanderErrors (`exitOverride`), so a usage error or `--help` ends `main`, not the process;
 * subcommands inherit both, being added after.
 */
export function buildProgram(invocation: Invocation): Command {
  const { stdout, stderr } = invocation.io;
  const program = new Command('agent-runs')
    .description('Command-line client of the Agent Runs API')
    .version(CLI_VERSION)
    .addOption(new Option('--api-key <key>', 'API key (env: AGENT_RUNS_API_KEY)'))
    .addOption(new Option('--base-url <url>', `REST root, ending in /api/v1 (default: ${DEFAULT_BASE_URL}) (env: AGENT_RUNS_BASE_URL)`))
    .option('--json', "print the API's JSON instead of tables (for scripts)")
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ writeOut: (text) => stdout.write(text), writeErr: (text) => stderr.write(text) })
    .exitOverride();
  bindInvocation(program, invocation);

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

/** Runs the command line `args` (without node and the script) and answers its exit code. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const invocation: Invocation = { io, exitCode: 0 };
  const program = buildProgram(invocation);
  try {
    // Found after parsing, but still about how the command was called: reported the way commander does.
    await program.parseAsync(args, { from: 'user' }).catch((err: unknown) => {
      if (err instanceof UsageError) program.error(`error: ${err.message}`);
      throw err;
    });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    return reportError(err, globalOptionsOf(program, invocation).baseUrl, io);
  }
  return invocation.exitCode;
}
