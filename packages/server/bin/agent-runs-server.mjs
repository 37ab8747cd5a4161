#!/usr/bin/env node
// The compiled server (dist/, made by `pnpm build`; docs/decisions.md §Production build), run with plain node.
// Settings come from the environment (docs/wire.md §Operating the server), as for `pnpm start`.
import { existsSync } from 'node:fs';

const USAGE = `usage: agent-runs-server [command]

commands:
  start                     run the server (the default)
  migrate                   apply pending migrations to DATABASE_URL and exit
  admin <command> [options] operator commands: create-team, create-key (\`admin --help\`)`;

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('main.js', dist))) {
  process.stderr.write('agent-runs-server: packages/server/dist is not built: run `pnpm build` first.\n');
  process.exit(1);
}
// Stack traces then name the TypeScript sources.
process.setSourceMapsEnabled(true);

const [command = 'start', ...args] = process.argv.slice(2);
if (command === 'start') (await import(new URL('main.js', dist).href)).runServer();
else if (command === 'migrate') (await import(new URL('migrate.js', dist).href)).runMigrations();
else if (command === 'admin') (await import(new URL('admin.js', dist).href)).runAdmin(args);
else if (command === 'help' || command === '--help' || command === '-h') process.stdout.write(`${USAGE}\n`);
else {
  process.stderr.write(`agent-runs-server: unknown command: ${command}\n${USAGE}\n`);
  process.exit(2);
}
