import { type ArtifactType, type RunListParams, type RunState, runArtifactTypeValues, runStateValues } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { addPageOptions, contextOf, type PageOptions, pageQuery, repeatableOption } from '../context';
import { interruptible } from '../errors';
import { formatFields, formatPage } from '../output';
import { answerHint, formatConversation, formatEvent, formatRun, formatSetupLog, RUN_COLUMNS } from '../run-format';
import { addRunCommand, waitForRun } from './run';

interface ListOptions extends PageOptions {
  state?: string[];
  name?: string;
  model?: string;
  artifactType?: string;
}

/** `runs list|get|create|followup|answer|cancel|watch|transcript|conversation|setup-log`. */
export function registerRunsCommands(program: Command): void {
  const runs = program.command('runs').description('list, inspect, steer and follow runs');

  const list = runs
    .command('list')
    .description('list runs, most recently updated first')
    .option('--state <state>', `only runs in this state (repeatable: ${runStateValues.join(', ')})`, repeatableOption(runState))
    .option('--name <name>', 'only runs whose config name (AmbientAgentConfig.name) is this')
    .option('--model <modelId>', 'only runs of this model_id')
    .option('--artifact-type <type>', `only runs that published an artifact of this type (${runArtifactTypeValues.join(', ')})`, artifactType);
  addPageOptions(list, 'runs', 20).action(async (options: ListOptions, command: Command) => {
    const { client, out } = contextOf(command);
    const query: RunListParams = pageQuery(options);
    if (options.state?.length) query.state = options.state as RunState[];
    if (options.name !== undefined) query.name = options.name;
    if (options.model !== undefined) query.model_id = options.model;
    if (options.artifactType !== undefined) query.artifact_type = options.artifactType as ArtifactType;
    const page = await client.agent.runs.list(query);
    out.result(page.body, () => formatPage(page.data, page.page_info, RUN_COLUMNS, 'no runs'));
  });

  addRunCommand(runs, 'create', 'start a run (the same as `agent-runs run`)');

  runs
    .command('get')
    .description('show one run')
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const run = await client.agent.runs.retrieve(runId);
      out.result(run, () => `${formatRun(run)}${answerHint(run)}`);
    });

  runs
    .command('followup')
    .description('send a follow-up message to a run')
    .argument('<runId>', 'the run id')
    .requiredOption('--message <text>', 'the follow-up message')
    .action(async (runId: string, options: { message: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const answer = await client.agent.runs.followup(runId, { message: options.message });
      out.result(answer, () =>
        formatFields([
          ['run_id', answer.run_id],
          ['state', answer.state],
        ]),
      );
    });

  runs
    .command('answer')
    .description('answer the question of a BLOCKED run (a follow-up): the run goes back to work with it')
    .argument('<runId>', 'the run id')
    .argument('<text>', 'the answer')
    .option('--wait', 'then wait for the run as `run --wait` does (until it is terminal or asks again)')
    .action(async (runId: string, text: string, options: { wait?: boolean }, command: Command) => {
      const cli = contextOf(command);
      const startedAt = Date.now();
      const answered = await cli.client.agent.runs.answer(runId, text);
      if (options.wait) {
        await waitForRun(cli, answered.run_id, answered.state, startedAt);
        return;
      }
      cli.out.result(answered, () =>
        formatFields([
          ['run_id', answered.run_id],
          ['state', answered.state],
        ]),
      );
    });

  runs
    .command('cancel')
    .description('cancel a run (as in Oz: a finished run answers 400 invalid_request, a PENDING one 409 conflict)')
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const cancelled = await client.agent.runs.cancel(runId);
      out.result(cancelled, () => `cancellation requested for run ${cancelled}`);
    });

  runs
    .command('watch')
    .description("print a run's events as they happen, until it reaches a terminal state")
    .argument('<runId>', 'the run id')
    .option('--after <eventId>', 'start after this event id (default: from the first event)')
    .action(async (runId: string, options: { after?: string }, command: Command) => {
      const { client, out, invocation } = contextOf(command);
      await interruptible(invocation, async (signal) => {
        const stream = client.agent.runs.events(runId, options.after !== undefined ? { lastEventId: options.after } : {}, { signal });
        for await (const event of stream) {
          if (out.json) out.jsonLine(event);
          else out.line(formatEvent(event));
        }
      });
    });

  runs
    .command('transcript')
    .description("print a run's transcript: JSON Lines, one message of its conversation per line")
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      // JSON Lines already: printed as served, with or without --json.
      const transcript = await (await client.agent.runs.transcript(runId)).text();
      out.line(transcript);
    });

  runs
    .command('conversation')
    .description("print a run's conversation: each turn's messages (user, assistant, tool) block by block")
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const conversation = await client.agent.runs.conversation(runId);
      out.result(conversation, () => formatConversation(conversation));
    });

  runs
    .command('setup-log')
    .description("print what a run's environment setup commands printed (admin keys only; secrets shown as ***)")
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const log = await client.agent.runs.setupLog(runId);
      out.result(log, () => formatSetupLog(log));
    });
}

function runState(value: string): string {
  const state = value.toUpperCase();
  if (!(runStateValues as readonly string[]).includes(state)) {
    throw new InvalidArgumentError(`'${value}' is not a run state (${runStateValues.join(', ')}).`);
  }
  return state;
}

function artifactType(value: string): string {
  const type = value.toUpperCase();
  if (!(runArtifactTypeValues as readonly string[]).includes(type)) {
    throw new InvalidArgumentError(`'${value}' is not an artifact type (${runArtifactTypeValues.join(', ')}).`);
  }
  return type;
}
