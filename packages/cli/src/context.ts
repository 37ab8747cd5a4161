import { readFileSync } from 'node:fs';
import { AgentRuns } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
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
