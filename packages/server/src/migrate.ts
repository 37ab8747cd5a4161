/** `pnpm migrate`, `agent-runs-server migrate`: applies pending migrations to DATABASE_URL and exits. */
import { pathToFileURL } from 'node:url';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { loadSettings } from './settings';

async function run(): Promise<void> {
  const settings = loadSettings();
  const database = await openDatabase(settings);
  try {
    const applied = await migrateToLatest(database.db);
    process.stdout.write(JSON.stringify({ applied }) + '\n');
  } finally {
    await database.close();
  }
}

/** Prints `{"applied": [names]}`; exits 1 with the reason when a migration fails. */
export function runMigrations(): void {
  run().catch((err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

// Run as a program (`tsx src/migrate.ts`, `node dist/migrate.js`), not when imported (bin/agent-runs-server.mjs).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMigrations();
