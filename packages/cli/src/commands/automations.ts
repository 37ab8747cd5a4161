import { readFileSync } from 'node:fs';
import type {
  AmbientAgentConfig,
  Automation,
  CreateAutomationRequest,
  PayloadFilter,
  TestFilterResult,
  Trigger,
  UpdateAutomationRequest,
} from '@agent-runs/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import YAML from 'yaml';
import {
  addDeleteCommand,
  addEnableDisableCommands,
  addPageOptions,
  contextOf,
  factoryOption,
  type PageOptions,
  pageQuery,
  repeatableOption,
} from '../context';
import { UsageError } from '../errors';
import { type Column, cellText, formatFields, formatPage, formatTime } from '../output';

const AUTOMATION_ARGUMENT = { name: '<automationUid>', description: 'the automation (aut_…)' };

/** The flags that describe one webhook trigger (create, update, and a draft for test-filter). */
interface TriggerOptions {
  webhook?: string[];
  filter?: PayloadFilter;
}

interface PromptOptions {
  prompt?: string;
  promptFile?: string;
}

interface CreateOptions extends TriggerOptions, PromptOptions {
  factory: string;
  name: string;
  model?: string;
  disabled?: boolean;
}

interface UpdateOptions extends TriggerOptions, PromptOptions {
  factory: string;
  name?: string;
  model?: string;
}

/** `automations list|create|get|update|enable|disable|delete|test-filter`. */
export function registerAutomationsCommands(program: Command): void {
  const automations = program.command('automations').description("manage a factory's automations: which webhook deliveries start which runs");

  addPageOptions(automations.command('list').description("list a factory's automations, newest first").addOption(factoryOption()), 'automations', 50).action(
    async (options: PageOptions & { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const page = await client.factories.automations.list(options.factory, pageQuery(options));
      out.result(page.body, () => formatPage(page.data, page.page_info, AUTOMATION_COLUMNS, 'no automations'));
    },
  );

  addTriggerOptions(
    addPromptOptions(
      automations
        .command('create')
        .description('create an automation (admin key, api factories): deliveries of --webhook matching --filter start a run')
        .addOption(factoryOption())
        .requiredOption('--name <name>', 'name, unique within the factory'),
    ),
  )
    .option('--model <modelId>', 'the model its runs use (config.model_id)')
    .option('--disabled', 'create it disabled (enable it with `automations enable`)')
    .action(async (options: CreateOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const triggers = triggersOf(options);
      if (triggers === undefined) throw new UsageError('pass --webhook <uid> (the webhook whose deliveries start runs)');
      const body: CreateAutomationRequest = { name: options.name, prompt: promptOf(options, true)!, triggers };
      if (options.model !== undefined) body.config = { model_id: options.model } as AmbientAgentConfig;
      if (options.disabled) body.enabled = false;
      const automation = await client.factories.automations.create(options.factory, body);
      out.result(automation, () => formatAutomation(automation));
    });

  automations
    .command('get')
    .description('show one automation, with the state of each webhook it selects')
    .addOption(factoryOption())
    .argument(AUTOMATION_ARGUMENT.name, AUTOMATION_ARGUMENT.description)
    .action(async (automationUid: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const automation = await client.factories.automations.retrieve(options.factory, automationUid);
      out.result(automation, () => formatAutomation(automation));
    });

  addTriggerOptions(
    addPromptOptions(
      automations
        .command('update')
        .description('change the given fields; --webhook (with --filter) replaces every trigger with one')
        .addOption(factoryOption())
        .argument(AUTOMATION_ARGUMENT.name, AUTOMATION_ARGUMENT.description)
        .option('--name <name>', 'new name, unique within the factory'),
    ),
  )
    .option('--model <modelId>', 'the model its runs use (the rest of its config is kept)')
    .action(async (automationUid: string, options: UpdateOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const body: UpdateAutomationRequest = {};
      if (options.name !== undefined) body.name = options.name;
      const prompt = promptOf(options, false);
      if (prompt !== undefined) body.prompt = prompt;
      const triggers = triggersOf(options);
      if (triggers !== undefined) body.triggers = triggers;
      if (options.model !== undefined) {
        // PATCH replaces the whole config; keep what --model does not change.
        const current = await client.factories.automations.retrieve(options.factory, automationUid);
        body.config = { ...current.config, model_id: options.model } as AmbientAgentConfig;
      }
      if (Object.keys(body).length === 0) {
        throw new UsageError('nothing to update: pass --name, --prompt, --prompt-file, --model or --webhook');
      }
      const automation = await client.factories.automations.update(options.factory, automationUid, body);
      out.result(automation, () => formatAutomation(automation));
    });

  addEnableDisableCommands(
    automations,
    'automation',
    AUTOMATION_ARGUMENT,
    { enable: 'start runs from matching deliveries again', disable: 'start no runs (deliveries are still logged)' },
    (client, factoryUid, uid, enabled) => client.factories.automations.update(factoryUid, uid, { enabled }),
  );

  addDeleteCommand(automations, 'automation', AUTOMATION_ARGUMENT, 'delete an automation (runs it started are not affected)', (client, factoryUid, uid) =>
    client.factories.automations.delete(factoryUid, uid),
  );

  addTriggerOptions(
    automations
      .command('test-filter')
      .description(
        'would a stored delivery trigger this automation? Give a saved one by <automationUid>, or a draft ' +
          'trigger with --webhook (and --filter); nothing is started',
      )
      .addOption(factoryOption())
      .argument('[automationUid]', 'a saved automation (aut_…); leave out to test a draft')
      .requiredOption('--delivery <deliveryId>', 'an Accepted delivery of a webhook of the factory (dlv_…)'),
  ).action(async (automationUid: string | undefined, options: TriggerOptions & { factory: string; delivery: string }, command: Command) => {
    const { client, out } = contextOf(command);
    const draft = triggersOf(options)?.[0];
    let result: TestFilterResult;
    if (automationUid !== undefined) {
      if (draft !== undefined) {
        throw new UsageError('give either <automationUid> or a draft (--webhook, --filter), not both');
      }
      result = await client.factories.automations.testFilter(options.factory, automationUid, {
        delivery_id: options.delivery,
      });
    } else {
      if (draft === undefined) throw new UsageError('give <automationUid>, or --webhook <uid> for a draft trigger');
      result = await client.factories.testFilter(options.factory, { delivery_id: options.delivery, trigger: draft });
    }
    out.result(result, () => formatTestResult(result));
  });
}

function addPromptOptions(command: Command): Command {
  return command
    .addOption(new Option('--prompt <text>', 'the prompt each run starts with').conflicts('promptFile'))
    .option('--prompt-file <path>', 'read the prompt from this file');
}

function addTriggerOptions(command: Command): Command {
  return command
    .option('--webhook <uid>', 'a webhook whose deliveries trigger it (repeatable, or comma-separated)', repeatableOption())
    .option(
      '--filter <filter>',
      'payload filter as YAML or JSON (`{action: [opened, reopened]}`), or @<file>; see PayloadFilter in openapi/v1.yaml',
      parseFilter,
    );
}

/** The prompt of `--prompt` or `--prompt-file`; `required` makes a missing one a usage error. */
function promptOf(options: PromptOptions, required: boolean): string | undefined {
  if (options.promptFile !== undefined) return readFileSync(options.promptFile, 'utf8');
  if (options.prompt === undefined && required) throw new UsageError('pass --prompt <text> or --prompt-file <path>');
  return options.prompt;
}

/** The one trigger the flags describe, as the API's list; undefined when no --webhook was given. */
function triggersOf(options: TriggerOptions): Trigger[] | undefined {
  if (!options.webhook?.length) {
    if (options.filter !== undefined) throw new UsageError('--filter needs --webhook <uid> (the webhooks it applies to)');
    return undefined;
  }
  const filter: Trigger['filter'] = { webhook_ids: options.webhook };
  if (options.filter !== undefined) filter.payload = options.filter;
  return [{ provider: 'webhook', event: 'received', filter }];
}

/** `--filter`: an object in YAML or JSON (JSON is YAML), inline or from `@<file>`. The server validates the rest. */
function parseFilter(value: string): PayloadFilter {
  let text = value;
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8');
    } catch (err) {
      throw new InvalidArgumentError(`cannot read ${value.slice(1)}: ${(err as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = YAML.parse(text);
  } catch (err) {
    throw new InvalidArgumentError(`not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidArgumentError('expected an object, such as {action: [opened, reopened]}');
  }
  return parsed as PayloadFilter;
}

const AUTOMATION_COLUMNS: Column<Automation>[] = [
  { header: 'UID', value: (automation) => automation.uid },
  { header: 'NAME', value: (automation) => automation.name, maxWidth: 32 },
  { header: 'ENABLED', value: (automation) => (automation.enabled ? 'yes' : 'no') },
  {
    header: 'WEBHOOKS',
    value: (automation) =>
      automation.selected_webhooks.map((webhook) => `${webhook.name ?? webhook.uid}${webhook.state === 'enabled' ? '' : ` (${webhook.state})`}`).join(', '),
    maxWidth: 48,
  },
  { header: 'UPDATED', value: (automation) => formatTime(automation.updated_at) },
];

function formatAutomation(automation: Automation): string {
  const webhooks = automation.selected_webhooks.map((webhook) => [webhook.uid, webhook.name, webhook.state].filter(Boolean).join('  ')).join('\n');
  return formatFields([
    ['uid', automation.uid],
    ['factory_uid', automation.factory_uid],
    ['name', automation.name],
    ['enabled', automation.enabled ? 'yes' : 'no'],
    ['model_id', automation.config?.model_id],
    ['definition_file', automation.definition_file],
    ['webhooks', webhooks],
    ['triggers', automation.triggers.map(formatTrigger).join('\n')],
    ['created_at', formatTime(automation.created_at)],
    ['updated_at', formatTime(automation.updated_at)],
    ['prompt', automation.prompt],
  ]);
}

/** One trigger on one line: `<webhook uids>  payload <filter as JSON>` (or `any payload`). */
function formatTrigger(trigger: Trigger): string {
  const { webhook_ids, payload } = trigger.filter;
  const filter = payload === undefined || Object.keys(payload).length === 0 ? 'any payload' : `payload ${JSON.stringify(payload)}`;
  return `${webhook_ids.join(', ')}  ${filter}`;
}

function formatTestResult(result: TestFilterResult): string {
  const check = (passed: boolean, reason: string, path?: string | null) => `${passed ? 'passed' : 'failed'}${path ? ` at ${path}` : ''}: ${cellText(reason)}`;
  return formatFields([
    ['result', result.result],
    ['webhook_check', check(result.webhook_check.passed, result.webhook_check.reason)],
    ['payload_check', check(result.payload_check.passed, result.payload_check.reason, result.payload_check.path)],
  ]);
}
