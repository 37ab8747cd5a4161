import { readFileSync } from 'node:fs';
import type { AmbientAgentConfig, CreateScheduledAgentRequest, ScheduledAgentItem, UpdateScheduledAgentRequest } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { addPageOptions, contextOf, type PageOptions, pageQuery, repeatableOption } from '../context';
import { UsageError } from '../errors';
import { type Column, formatFields, formatPage, formatTime } from '../output';
import { RUN_COLUMNS } from '../run-format';

const SCHEDULE_ARGUMENT = ['<scheduleId>', 'the scheduled agent (sch_…)'] as const;

/** The flags that describe what a schedule's runs do and when (create, and update's changes). */
interface DefinitionOptions {
  name?: string;
  cron?: string;
  timeZone?: string;
  prompt?: string;
  promptFile?: string;
  skill?: string;
  model?: string;
  configName?: string;
  /** `key=value` pairs (repeatable), stamped on every run. */
  metadata?: string[];
}

/** `schedules list|create|get|update|pause|resume|delete|runs`. */
export function registerSchedulesCommands(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('scheduled agents: a cron expression in a time zone that starts a run at each slot (writes need an admin key)');

  addPageOptions(schedules.command('list').description("list the team's scheduled agents by name"), 'schedules', 500).action(
    async (options: PageOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const page = await client.agent.schedules.list(pageQuery(options));
      out.result(page.body, () => formatPage(page.data, page.page_info, SCHEDULE_COLUMNS, 'no scheduled agents'));
    },
  );

  addDefinitionOptions(
    schedules
      .command('create')
      .description('create a scheduled agent: each slot of --cron in --time-zone starts one run of --prompt (or --skill)')
      .requiredOption('--name <name>', 'human-readable name; its runs are titled with it')
      .requiredOption('--cron <expression>', "five-field cron expression or nickname, e.g. '0 9 * * 1-5' or @daily"),
  )
    .option('--disabled', 'create it paused (start it with `schedules resume`)')
    .action(async (options: DefinitionOptions & { name: string; cron: string; disabled?: boolean }, command: Command) => {
      const { client, out } = contextOf(command);
      const body: CreateScheduledAgentRequest = { name: options.name, cron_schedule: options.cron };
      applyDefinition(body, options, undefined);
      if (options.disabled) body.enabled = false;
      const schedule = await client.agent.schedules.create(body);
      out.result(schedule, () => formatSchedule(schedule));
    });

  schedules
    .command('get')
    .description('show one scheduled agent with its history and next slot')
    .argument(...SCHEDULE_ARGUMENT)
    .action(async (scheduleId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const schedule = await client.agent.schedules.retrieve(scheduleId);
      out.result(schedule, () => formatSchedule(schedule));
    });

  addDefinitionOptions(
    schedules
      .command('update')
      .description('change the given fields; the rest of the definition is kept (read, then written back whole: PUT)')
      .argument(...SCHEDULE_ARGUMENT)
      .option('--name <name>', 'new name')
      .option('--cron <expression>', 'new cron expression (the next slot is computed again from now)'),
  )
    .option('--no-metadata', 'clear the metadata stamped on its runs')
    .action(async (scheduleId: string, options: DefinitionOptions & { metadata?: string[] | false }, command: Command) => {
      const { client, out } = contextOf(command);
      const changed = ['name', 'cron', 'timeZone', 'prompt', 'promptFile', 'skill', 'model', 'configName', 'metadata'].some(
        (flag) => (options as Record<string, unknown>)[flag] !== undefined,
      );
      if (!changed) {
        throw new UsageError(
          'nothing to update: pass --name, --cron, --time-zone, --prompt, --prompt-file, --skill, --model, --config-name, --metadata or --no-metadata',
        );
      }
      const current = await client.agent.schedules.retrieve(scheduleId);
      const body: UpdateScheduledAgentRequest = {
        name: options.name ?? current.name,
        cron_schedule: options.cron ?? current.cron_schedule,
        enabled: current.enabled,
        time_zone: current.time_zone,
        prompt: current.prompt,
      };
      if (current.agent_config) body.agent_config = current.agent_config;
      if (current.metadata && options.metadata !== false) body.metadata = current.metadata;
      applyDefinition(body, { ...options, metadata: options.metadata === false ? undefined : options.metadata }, current);
      const schedule = await client.agent.schedules.update(scheduleId, body);
      out.result(schedule, () => formatSchedule(schedule));
    });

  for (const [verb, description] of [
    ['pause', 'stop firing until resumed (a run it already started is not touched)'],
    ['resume', 'fire again from the next slot after now (slots missed while paused are not made up)'],
  ] as const) {
    schedules
      .command(verb)
      .description(description)
      .argument(...SCHEDULE_ARGUMENT)
      .action(async (scheduleId: string, _options: unknown, command: Command) => {
        const { client, out } = contextOf(command);
        const schedule = await (verb === 'pause' ? client.agent.schedules.pause(scheduleId) : client.agent.schedules.resume(scheduleId));
        out.result(
          schedule,
          () => `scheduled agent ${schedule.id} ${schedule.enabled ? `resumed; next run ${formatTime(schedule.history.next_run)}` : 'paused'}`,
        );
      });
  }

  schedules
    .command('delete')
    .description('delete a scheduled agent (the runs it started stay, and still name it)')
    .argument(...SCHEDULE_ARGUMENT)
    .action(async (scheduleId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const answer = await client.agent.schedules.delete(scheduleId);
      out.result(answer, () => `deleted scheduled agent ${scheduleId}`);
    });

  addPageOptions(
    schedules
      .command('runs')
      .description('list the runs a scheduled agent started, most recently updated first')
      .argument(...SCHEDULE_ARGUMENT),
    'runs',
    20,
  ).action(async (scheduleId: string, options: PageOptions, command: Command) => {
    const { client, out } = contextOf(command);
    const page = await client.agent.runs.list({ ...pageQuery(options), schedule_id: scheduleId });
    out.result(page.body, () => formatPage(page.data, page.page_info, RUN_COLUMNS, 'no runs'));
  });
}

function addDefinitionOptions(command: Command): Command {
  return command
    .option('--time-zone <zone>', 'IANA time zone the expression is read in, e.g. Europe/Paris (create: UTC; update: kept)')
    .addOption(new Option('--prompt <text>', 'what each run executes').conflicts('promptFile'))
    .option('--prompt-file <path>', 'read the prompt from this file')
    .option('--skill <spec>', 'a skill as the base prompt (agent_config.skill_spec: owner/repo:skill)')
    .option('--model <modelId>', 'the model its runs use (agent_config.model_id)')
    .option('--config-name <name>', 'agent_config.name: label of its runs (GET /agent/runs?name=)')
    .option('--metadata <key=value>', 'metadata stamped on every run (repeatable, or comma-separated)', repeatableOption(metadataPair));
}

/**
 * Writes the flags given into a create or update body. On update (`current` given) a flag replaces that
 * part only: the configuration's other fields and the other metadata keys are kept.
 */
function applyDefinition(
  body: CreateScheduledAgentRequest | UpdateScheduledAgentRequest,
  options: DefinitionOptions,
  current: ScheduledAgentItem | undefined,
): void {
  if (options.timeZone !== undefined) body.time_zone = options.timeZone;
  if (options.promptFile !== undefined) body.prompt = readFileSync(options.promptFile, 'utf8');
  else if (options.prompt !== undefined) body.prompt = options.prompt;
  const config: Record<string, unknown> = { ...current?.agent_config };
  if (options.skill !== undefined) {
    // A schedule whose prompt was its skill's own (it was created with a skill and no prompt) takes the new
    // skill's: the server writes it again when the body has no prompt.
    const skillPrompt = `Follow the instructions of the skill ${String(current?.agent_config?.skill_spec)}.`;
    if (current?.prompt === skillPrompt && options.prompt === undefined && options.promptFile === undefined) delete body.prompt;
    config.skill_spec = options.skill;
  }
  if (options.model !== undefined) config.model_id = options.model;
  if (options.configName !== undefined) config.name = options.configName;
  if (Object.keys(config).length > 0) body.agent_config = config as AmbientAgentConfig;
  if (options.metadata?.length) {
    body.metadata = { ...body.metadata, ...Object.fromEntries(options.metadata.map((pair) => pair.split(/=(.*)/s).slice(0, 2))) };
  }
  if (!current && body.prompt === undefined && options.skill === undefined) {
    throw new UsageError('pass --prompt <text>, --prompt-file <path> or --skill <spec>');
  }
}

function metadataPair(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}=/.test(value)) throw new InvalidArgumentError(`expected key=value (a key of letters, digits, . _ -), got '${value}'.`);
  return value;
}

const SCHEDULE_COLUMNS: Column<ScheduledAgentItem>[] = [
  { header: 'ID', value: (schedule) => schedule.id },
  { header: 'NAME', value: (schedule) => schedule.name, maxWidth: 32 },
  { header: 'CRON', value: (schedule) => schedule.cron_schedule },
  { header: 'TIME ZONE', value: (schedule) => schedule.time_zone },
  { header: 'ENABLED', value: (schedule) => (schedule.enabled ? 'yes' : 'no') },
  { header: 'NEXT RUN', value: (schedule) => formatTime(schedule.history.next_run) },
  { header: 'LAST', value: (schedule) => schedule.history.last_outcome },
];

function formatSchedule(schedule: ScheduledAgentItem): string {
  const { history } = schedule;
  return formatFields([
    ['id', schedule.id],
    ['name', schedule.name],
    ['enabled', schedule.enabled ? 'yes' : 'no (paused)'],
    ['cron_schedule', schedule.cron_schedule],
    ['time_zone', schedule.time_zone],
    ['next_run', formatTime(history.next_run)],
    ['last_ran', formatTime(history.last_ran)],
    ['last_run_id', history.last_run_id],
    ['last_outcome', history.last_outcome ? `${history.last_outcome} (slot ${formatTime(history.last_slot)})` : undefined],
    ['skipped_slots', history.skipped_slots || undefined],
    ['last_spawn_error', schedule.last_spawn_error],
    ['skill', schedule.agent_config?.skill_spec],
    ['model_id', schedule.agent_config?.model_id],
    ['environment', schedule.environment?.name ?? schedule.agent_config?.environment_id],
    [
      'metadata',
      schedule.metadata
        ? Object.entries(schedule.metadata)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : undefined,
    ],
    ['created_by', `${schedule.created_by.display_name} (${schedule.created_by.uid})`],
    ['created_at', formatTime(schedule.created_at)],
    ['updated_at', formatTime(schedule.updated_at)],
    ['prompt', schedule.prompt],
  ]);
}
