/** `pnpm --filter @agent-runs/server migrate`: applies pending migrations to DATABASE_URL and exits. */
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

run().catch((err: unknown) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
