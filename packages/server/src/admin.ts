/**
 * Operator commands (docs/wire.md §Operating the server). Each prints ONE JSON object on stdout;
 * errors go to stderr with exit status 1. `--help` prints the usage (exit 0); a missing or unknown command
 * prints it on stderr with exit status 2, the usual status for a command line that is wrong.
 *
 *   pnpm admin create-team <name>                                   → {"team_uid", "api_key"}
 *   pnpm admin create-key --team <name> --role admin|member [--name …] → {"team_uid", "api_key", "key_id"}
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey, type Role } from './api-keys/service';
import { findTeamByName } from './teams/repository';
import { createTeam, TeamExistsError } from './teams/service';
import { systemClock } from './clock';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { loadSettings } from './settings';

class UsageError extends Error {}

/** A command line that names no known command (exit status 2). */
class UnknownCommandError extends UsageError {}

const USAGE = `usage: pnpm --silent admin <command> [options]

commands:
  create-team <name>
      create a team; prints {"team_uid", "api_key"} with the team's first admin key
  create-key --team <name> --role admin|member [--name <key name>]
      create an API key for a team; prints {"team_uid", "api_key", "key_id"}

The database and secrets come from the same environment as \`pnpm start\` (DATABASE_URL, DATA_DIR,
SECRETS_KEY). Errors go to stderr with exit status 1 (2 for a missing or unknown command).`;

async function createTeamCommand(args: string[]): Promise<Record<string, string>> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [name, ...extra] = positionals;
  if (!name || extra.length > 0) throw new UsageError('create-team takes exactly one team name');
  return withDatabase(async (db) => {
    let team;
    try {
      team = await createTeam(db, systemClock, name);
    } catch (err) {
      if (err instanceof TeamExistsError) throw new UsageError(err.message);
      if (err instanceof TypeError) throw new UsageError(err.message);
      throw err;
    }
    const key = await createApiKey(db, systemClock, { teamId: team.id, name: 'admin', role: 'admin', createdBy: 'operator' });
    return { team_uid: team.id, api_key: key.api_key };
  });
}

async function createKeyCommand(args: string[]): Promise<Record<string, string>> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { team: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  if (!values.team) throw new UsageError('create-key needs --team <name>');
  if (values.role !== 'admin' && values.role !== 'member') throw new UsageError('create-key needs --role admin or --role member');
  const role: Role = values.role;
  const teamName = values.team;
  return withDatabase(async (db) => {
    const team = await findTeamByName(db, teamName);
    if (!team) throw new UsageError(`no team named "${teamName}"`);
    const key = await createApiKey(db, systemClock, {
      teamId: team.id,
      name: values.name ?? role,
      role,
      createdBy: 'operator',
    });
    return { team_uid: team.id, api_key: key.api_key, key_id: key.key_id };
  });
}

async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(loadSettings());
  try {
    await migrateToLatest(database.db);
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

const commands: Record<string, (args: string[]) => Promise<Record<string, string>>> = {
  'create-team': createTeamCommand,
  'create-key': createKeyCommand,
};

async function run(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '-h' || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const handler = command ? commands[command] : undefined;
  if (!handler) throw new UnknownCommandError(command ? `unknown command: ${command}` : 'missing command');
  process.stdout.write(JSON.stringify(await handler(args)) + '\n');
}

/** One operator command (`argv`: the command and its options); sets the exit status described above. */
export function runAdmin(argv: string[]): void {
  run(argv).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `error: ${message}\n${USAGE}\n` : `error: ${message}\n`,
    );
    process.exit(err instanceof UnknownCommandError ? 2 : 1);
  });
}

// Run as a program (`tsx src/admin.ts`, `node dist/admin.js`), not when imported (bin/agent-runs-server.mjs).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runAdmin(process.argv.slice(2));
