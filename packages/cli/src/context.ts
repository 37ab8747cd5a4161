import { readFileSync } from 'node:fs';
import { AgentRuns, DEFAULT_BASE_URL } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from './errors';
import type { Invocation } from './io';
import { Output } from './output';

export const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The program-wide options every command reads (see main.ts). */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  json?: boolean;
}

/** What a command action needs: an SDK client, the output (table or JSON) and its invocation. */
export interface CliContext {
  client: AgentRuns;
  out: Output;
  invocation: Invocation;
}

/** The invocation each program was built for (main.ts), found from any of its commands. */
const invocations = new WeakMap<Command, Invocation>();

export function bindInvocation(program: Command, invocation: Invocation): void {
  invocations.set(program, invocation);
}

function invocationOf(command: Command): Invocation {
  let root = command;
  while (root.parent) root = root.parent;
  const invocation = invocations.get(root);
  if (!invocation) throw new Error('the program was not built by buildProgram');
  return invocation;
}

/**
 * The global options with the environment filled in: a flag wins over AGENT_RUNS_API_KEY and
 * AGENT_RUNS_BASE_URL, read from the invocation's environment (not commander's `.env()`, which reads
 * `process.env`).
 */
export function globalOptionsOf(command: Command, invocation: Invocation): GlobalOptions & { baseUrl: string } {
  const options = command.optsWithGlobals<GlobalOptions>();
  const { env } = invocation.io;
  return {
    ...options,
    apiKey: options.apiKey ?? env['AGENT_RUNS_API_KEY'],
    baseUrl: options.baseUrl || env['AGENT_RUNS_BASE_URL'] || DEFAULT_BASE_URL,
  };
}

/** The context of the command being run. */
export function contextOf(command: Command): CliContext {
  const invocation = invocationOf(command);
  const options = globalOptionsOf(command, invocation);
  const out = new Output(options.json === true, invocation.io);
  if (!options.apiKey) {
    throw new UsageError('missing API key: pass --api-key or set AGENT_RUNS_API_KEY');
  }
  const client = new AgentRuns({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // The SDK's User-Agent plus ours, so server logs can tell CLI traffic apart.
    defaultHeaders: { 'User-Agent': `AgentRuns/CLI ${CLI_VERSION}` },
  });
  return { client, out, invocation };
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
export function repeatableOption(normalize: (value: string) => string = (value) => value): (value: string, previous: string[] | undefined) => string[] {
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
  update: (client: AgentRuns, factoryUid: string, uid: string, enabled: boolean) => Promise<{ uid: string; enabled: boolean }>,
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
