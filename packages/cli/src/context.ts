import { readFileSync } from 'node:fs';
import { AgentRuns } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from './errors';
import { Output } from './output';

export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The program-wide options every command reads (see main.ts). */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  json?: boolean;
}

/** What a command action needs: an SDK client and the output (table or JSON). Built per invocation. */
export interface CliContext {
  client: AgentRuns;
  out: Output;
}

/**
 * The context of the command being run. Flags win over the environment (commander fills
 * `--api-key`/`--base-url` from AGENT_RUNS_API_KEY/AGENT_RUNS_BASE_URL when absent).
 */
export function contextOf(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const out = new Output(options.json === true);
  if (!options.apiKey) {
    throw new UsageError('missing API key: pass --api-key or set AGENT_RUNS_API_KEY');
  }
  const client = new AgentRuns({
    apiKey: options.apiKey,
    baseURL: options.baseUrl || undefined,
    // The SDK's User-Agent plus ours, so server logs can tell CLI traffic apart.
    defaultHeaders: { 'User-Agent': `AgentRuns/CLI ${CLI_VERSION}` },
  });
  return { client, out };
}

/** Parser of `--limit`-like options: an integer in [1, max]. */
export function integerOption(max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max) {
      throw new InvalidArgumentError(`expected an integer from 1 to ${max}.`);
    }
    return n;
  };
}

/**
 * Parser of a repeatable option (`--state A --state B`, also `--state A,B`): collects the values,
 * normalised by `normalize`, which throws InvalidArgumentError for a bad one.
 */
export function repeatableOption(
  normalize: (value: string) => string = (value) => value,
): (value: string, previous: string[] | undefined) => string[] {
  return (value, previous) => [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(normalize),
  ];
}

/** `--factory <uid>`, which every factory-scoped command requires. */
export function factoryOption(): Option {
  return new Option('--factory <uid>', 'the factory (fac_…)').makeOptionMandatory();
}

/** What `--limit` and `--cursor` parse into. */
export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** Adds `--limit` and `--cursor` to a list command. */
export function addPageOptions(command: Command, noun: string, serverDefault: number): Command {
  return command
    .option('--limit <n>', `${noun} per page, 1-500 (server default ${serverDefault})`, integerOption(500))
    .option('--cursor <cursor>', 'the page after this cursor (printed under a page that has more)');
}

/** The list query of `--limit`/`--cursor`: only the flags given, so the server's defaults apply. */
export function pageQuery(options: PageOptions): PageOptions {
  return {
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
  };
}

/**
 * `enable` and `disable` under `group`: both PATCH `{enabled}` of one resource of a factory (a webhook, an
 * automation) and print `<noun> <uid> enabled|disabled`.
 */
export function addEnableDisableCommands(
  group: Command,
  noun: string,
  argument: { name: string; description: string },
  descriptions: { enable: string; disable: string },
  update: (
    client: AgentRuns,
    factoryUid: string,
    uid: string,
    enabled: boolean,
  ) => Promise<{ uid: string; enabled: boolean }>,
): void {
  for (const enabled of [true, false]) {
    group
      .command(enabled ? 'enable' : 'disable')
      .description(enabled ? descriptions.enable : descriptions.disable)
      .addOption(factoryOption())
      .argument(argument.name, argument.description)
      .action(async (uid: string, options: { factory: string }, command: Command) => {
        const { client, out } = contextOf(command);
        const updated = await update(client, options.factory, uid, enabled);
        out.result(updated, () => `${noun} ${updated.uid} ${updated.enabled ? 'enabled' : 'disabled'}`);
      });
  }
}

/**
 * `delete <uid>` under `group`, for one resource of a factory (a webhook, an automation). The API answers
 * 204 with no body, so `--json` prints `{"uid", "deleted": true}`.
 */
export function addDeleteCommand(
  group: Command,
  noun: string,
  argument: { name: string; description: string },
  description: string,
  remove: (client: AgentRuns, factoryUid: string, uid: string) => Promise<void>,
): void {
  group
    .command('delete')
    .description(description)
    .addOption(factoryOption())
    .argument(argument.name, argument.description)
    .action(async (uid: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      await remove(client, options.factory, uid);
      out.result({ uid, deleted: true }, () => `deleted ${noun} ${uid}`);
    });
}
