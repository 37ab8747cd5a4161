import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AgentRuns,
  type AmbientAgentConfig,
  isSettledRunState,
  isTerminalRunState,
  type RunAgentRequest,
  type RunItem,
  runStateValues,
} from '@agent-runs/sdk';
import type { Command } from 'commander';
import { type CliContext, contextOf } from '../context';
import { EXIT_RUN_BLOCKED, EXIT_RUN_UNSUCCESSFUL, interruptible, UsageError } from '../errors';
import { formatFields, RunProgress } from '../output';
import { answerHint, answerText, formatRun } from '../run-format';

interface RunOptions {
  prompt?: string;
  skill?: string;
  name?: string;
  model?: string;
  environment?: string;
  title?: string;
  wait?: boolean;
}

/** The terminal states `run --wait` exits non-zero on, as the SDK classifies them (for the help). */
const UNSUCCESSFUL_STATES = runStateValues.filter((state) => isTerminalRunState(state) && state !== 'SUCCEEDED');

/** How often `run --wait` polls when the event stream is unavailable (the SDK's `wait` default). */
const POLL_INTERVAL_MS = 1000;

/** `run` (and `runs create`, its alias): start a run, optionally waiting until it is terminal. */
export function registerRunCommand(program: Command): void {
  addRunCommand(program, 'run', 'start a run');
}

/** Adds the start-a-run command as `name` under `parent`: `run` at the top, `create` under `runs`. */
export function addRunCommand(parent: Command, name: string, description: string): void {
  parent
    .command(name)
    .description(description)
    .option('--prompt <text>', 'the prompt the agent executes (required unless --skill is given)')
    .option('--skill <id>', 'start from a skill: an ID `agent-runs agents` lists (owner/repo:path/to/SKILL.md)')
    .option('--name <name>', 'config name (AmbientAgentConfig.name): a label to group and filter runs by')
    .option('--model <modelId>', 'the model (AmbientAgentConfig.model_id; `agent-runs models` lists them)')
    .option('--environment <environmentId>', 'the cloud environment (env_…; `agent-runs environments list`)')
    .option('--title <title>', 'title (default: the first line of the prompt)')
    .option(
      '--wait',
      "wait until the run is terminal, showing its progress, then print it and the agent's answer " +
        `(exit code ${EXIT_RUN_UNSUCCESSFUL} when it ends ${UNSUCCESSFUL_STATES.join(', ')}); ` +
        `a run that asks a question stops the wait at BLOCKED with its question (exit code ${EXIT_RUN_BLOCKED})`,
    )
    .action(async (options: RunOptions, command: Command) => {
      const cli = contextOf(command);
      const body = runRequest(options);
      if (options.wait) {
        await createAndWait(cli, body);
        return;
      }
      const created = await cli.client.agent.runs.create(body);
      cli.out.result(created, () =>
        formatFields([
          ['run_id', created.run_id],
          ['state', created.state],
        ]),
      );
    });
}

/** The createRun body: `config` only when a config flag was given, so the server's defaults apply. */
export function runRequest(options: RunOptions): RunAgentRequest {
  if (options.prompt === undefined && options.skill === undefined) throw new UsageError('give --prompt, --skill or both');
  const config: { name?: string; model_id?: string; environment_id?: string } = {};
  if (options.name !== undefined) config.name = options.name;
  if (options.model !== undefined) config.model_id = options.model;
  if (options.environment !== undefined) config.environment_id = options.environment;
  return {
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.skill !== undefined ? { skill: options.skill } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    // The generated type marks the resolved limits required (they have defaults); on input they are optional.
    ...(Object.keys(config).length > 0 ? { config: config as AmbientAgentConfig } : {}),
  };
}

/** `run --wait`: creates the run, then waits for it (waitForRun). */
async function createAndWait(cli: CliContext, body: RunAgentRequest): Promise<void> {
  const startedAt = Date.now();
  const created = await cli.client.agent.runs.create(body);
  await waitForRun(cli, created.run_id, created.state, startedAt);
}

/**
 * The wait of `run --wait` and `runs answer --wait`: the run id at once and its progress on stderr, then
 * the terminal run and, for people, the agent's answer on stdout — or, when the run stops to ask, the
 * BLOCKED run with its question and how to answer it. With `--json` stdout is the run's JSON alone, and
 * the progress shows only when stderr is a terminal (a script's stderr stays empty).
 */
export async function waitForRun({ client, out, invocation }: CliContext, runId: string, state: string, startedAt: number): Promise<void> {
  const { stderr } = invocation.io;
  const progress = !out.json || stderr.isTTY ? new RunProgress(stderr, startedAt) : undefined;
  progress?.start(runId, state);
  const run = await interruptible(invocation, (signal) => followRun(client, runId, (next) => progress?.update(next), signal));
  if (run === undefined) {
    progress?.stop(`interrupted: the run goes on (stop it with \`agent-runs runs cancel ${runId}\`)`);
    return;
  }
  progress?.stop();
  if (run.state === 'BLOCKED') {
    out.result(run, () => `${formatRun(run)}${answerHint(run)}`);
    invocation.exitCode = EXIT_RUN_BLOCKED;
    return;
  }
  // The answer is for people; scripts read it with `runs conversation <id> --json`.
  const answer = out.json ? '' : answerText(await client.agent.runs.conversation(run.run_id));
  out.result(run, () => `${formatRun(run)}\n\nanswer:\n${answer || '(no assistant text)'}`);
  if (run.state !== 'SUCCEEDED') invocation.exitCode = EXIT_RUN_UNSUCCESSFUL;
}

/**
 * Resolves with the run once it is terminal or BLOCKED, reporting each state it passes through. Like the
 * SDK's `runs.wait` (events first, polling when the stream is unavailable), which reports no progress.
 */
async function followRun(client: AgentRuns, runId: string, onState: (state: string) => void, signal: AbortSignal): Promise<RunItem> {
  try {
    // The SDK's stream ends after the terminal state event; a BLOCKED run's stream stays open for its answer.
    for await (const event of client.agent.runs.events(runId, {}, { signal })) {
      if (event.event !== 'state') continue;
      onState(event.data.state);
      if (event.data.state === 'BLOCKED') break;
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  for (;;) {
    const run = await client.agent.runs.retrieve(runId, { signal });
    onState(run.state);
    if (isSettledRunState(run.state)) return run;
    await sleep(POLL_INTERVAL_MS, undefined, { signal });
  }
}
