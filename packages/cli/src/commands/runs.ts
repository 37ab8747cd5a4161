import type { ContentBlock, RunEvent, RunItem, RunListParams, RunState } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { contextOf, integerOption, repeatableOption } from '../context';
import { EXIT_INTERRUPTED } from '../errors';
import { type Column, cellText, formatFields, formatTable, formatTime, nextPageHint } from '../output';

const RUN_STATES: readonly RunState[] = [
  'QUEUED',
  'PENDING',
  'CLAIMED',
  'INPROGRESS',
  'SUCCEEDED',
  'FAILED',
  'BLOCKED',
  'ERROR',
  'CANCELLED',
];

interface ListOptions {
  state?: string[];
  name?: string;
  model?: string;
  limit?: number;
  cursor?: string;
}

/** `runs list|get|followup|cancel|watch`. */
export function registerRunsCommands(program: Command): void {
  const runs = program.command('runs').description('list, inspect, steer and follow runs');

  runs
    .command('list')
    .description('list runs, most recently updated first')
    .option('--state <state>', `only runs in this state (repeatable: ${RUN_STATES.join(', ')})`, repeatableOption(runState))
    .option('--name <name>', 'only runs whose config name (AmbientAgentConfig.name) is this')
    .option('--model <modelId>', 'only runs of this model_id')
    .option('--limit <n>', 'runs per page, 1-500 (server default 20)', integerOption(500))
    .option('--cursor <cursor>', 'the page after this cursor (printed under a page that has more)')
    .action(async (options: ListOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const query: RunListParams = {};
      if (options.state?.length) query.state = options.state as RunState[];
      if (options.name !== undefined) query.name = options.name;
      if (options.model !== undefined) query.model_id = options.model;
      if (options.limit !== undefined) query.limit = options.limit;
      if (options.cursor !== undefined) query.cursor = options.cursor;
      const page = await client.agent.runs.list(query);
      out.result(page.body, () => {
        if (page.data.length === 0) return 'no runs';
        const hint = nextPageHint(page.page_info);
        return formatTable(page.data, RUN_COLUMNS) + (hint ? `\n${hint}` : '');
      });
    });

  runs
    .command('get')
    .description('show one run')
    .argument('<runId>', 'the run id')
    .action(async (runId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const run = await client.agent.runs.retrieve(runId);
      out.result(run, () => formatRun(run));
    });

  runs
    .command('followup')
    .description('send a follow-up message to a run')
    .argument('<runId>', 'the run id')
    .requiredOption('--message <text>', 'the follow-up message')
    .action(async (runId: string, options: { message: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const answer = await client.agent.runs.followup(runId, { message: options.message });
      out.result(answer, () => formatFields([['run_id', answer.run_id], ['state', answer.state]]));
    });

  runs
    .command('cancel')
    .description('cancel a run (a finished run answers 409 conflict)')
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
      const { client, out } = contextOf(command);
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort();
      process.once('SIGINT', onSigint);
      try {
        const stream = client.agent.runs.events(
          runId,
          options.after !== undefined ? { lastEventId: options.after } : {},
          { signal: interrupt.signal },
        );
        for await (const event of stream) {
          if (out.json) out.jsonLine(event);
          else out.line(formatEvent(event));
        }
      } catch (err) {
        // Ctrl-C ends a watch; that is not an error worth a message.
        if (interrupt.signal.aborted) {
          process.exitCode = EXIT_INTERRUPTED;
          return;
        }
        throw err;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}

export const RUN_COLUMNS: Column<RunItem>[] = [
  { header: 'RUN ID', value: (run) => run.run_id },
  { header: 'STATE', value: (run) => run.state },
  { header: 'NAME', value: (run) => run.agent_config?.name, maxWidth: 24 },
  { header: 'UPDATED', value: (run) => formatTime(run.updated_at) },
  { header: 'TITLE', value: (run) => run.title, maxWidth: 60 },
];

/** One run as `label: value` lines, JSON field names as labels. */
export function formatRun(run: RunItem): string {
  const status = run.status_message
    ? `${run.status_message.message}${run.status_message.error_code ? ` (${run.status_message.error_code})` : ''}`
    : undefined;
  const creator = run.creator
    ? `${run.creator.display_name} (${run.creator.type} ${run.creator.uid})`
    : undefined;
  return formatFields([
    ['run_id', run.run_id],
    ['title', run.title],
    ['state', run.state],
    ['status', status],
    ['name', run.agent_config?.name],
    ['model_id', run.agent_config?.model_id],
    ['source', run.source],
    ['creator', creator],
    ['created_at', formatTime(run.created_at)],
    ['started_at', formatTime(run.started_at)],
    ['updated_at', formatTime(run.updated_at)],
    ['session_link', run.session_link],
    ['factory_uid', run.factory_uid],
    ['automation_id', run.automation_id],
    ['delivery_id', run.delivery_id],
    ['usage', run.usage ? `${run.usage.total_tokens} tokens` : undefined],
    ['prompt', run.prompt],
  ]);
}

/** One event of `runs watch` as a line: `<time>  <kind>  <what happened>`. */
export function formatEvent(event: RunEvent): string {
  if (event.event === 'state') {
    const { state, updated_at, status_message } = event.data;
    return [formatTime(updated_at), 'state', state, status_message?.message].filter(Boolean).join('  ');
  }
  const { timestamp, role, block } = event.data;
  return `${formatTime(timestamp)}  ${role}  ${formatBlock(block)}`;
}

function formatBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return `text  ${block.text.replace(/\n/g, '\n    ')}`;
    case 'action':
      return `action  ${block.category}/${block.name}  ${cellText(JSON.stringify(block.input), 200)}`;
    case 'action_result':
      return `result  ${block.category}/${block.name}  ${block.state}  ${cellText(JSON.stringify(block.output ?? null), 200)}`;
    case 'event':
      return `event  ${block.name}${block.data === undefined ? '' : `  ${cellText(JSON.stringify(block.data), 200)}`}`;
    default:
      return cellText(JSON.stringify(block), 200);
  }
}

function runState(value: string): string {
  const state = value.toUpperCase();
  if (!(RUN_STATES as readonly string[]).includes(state)) {
    throw new InvalidArgumentError(`'${value}' is not a run state (${RUN_STATES.join(', ')}).`);
  }
  return state;
}
