/**
 * The databases every DB-level test runs on: a fresh SQLite file always, and a fresh PostgreSQL database
 * when TEST_POSTGRES_URL is set (an admin URL; each `create()` makes `t_<random>` and drops it on close).
 *
 * A migrated database is a copy of a template migrated once per set of migration files (named by a hash
 * of them): for SQLite a file under the temp directory, copied; for PostgreSQL a database `tmpl_<hash>`,
 * cloned with CREATE DATABASE … TEMPLATE. Migrating every fresh database took a third of a second on
 * SQLite and about a second on PostgreSQL, hundreds of times per suite (docs/decisions.md §A faster,
 * steadier test suite).
 *
 *   describe.each(testDatabases())('runs repository ($dialect)', (kind) => {
 *     let t: TestDatabase;
 *     beforeEach(async () => { t = await kind.create(); });
 *     afterEach(() => t.close());
 *   });
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/db/database';
import type { Dialect } from '../../src/db/dialect';
import { migrateToLatest } from '../../src/db/migrate';
import type { Database } from '../../src/db/tables';

export interface TestDatabase {
  dialect: Dialect;
  /** DATABASE_URL of this fresh database (also usable by a child process). */
  databaseUrl: string;
  /** A temp directory belonging to this database (SQLite file, secrets key, work dirs). */
  dataDir: string;
  /** Open and migrated (unless `create({ migrate: false })`). */
  db: Kysely<Database>;
  close(): Promise<void>;
}

export interface TestDatabaseKind {
  dialect: Dialect;
  create(options?: { migrate?: boolean }): Promise<TestDatabase>;
  toString(): string;
}

let skipNoticePrinted = false;

export function testDatabases(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [sqliteKind];
  const postgresUrl = process.env.TEST_POSTGRES_URL;
  if (postgresUrl) kinds.push(postgresKind(postgresUrl));
  else if (!skipNoticePrinted) {
    skipNoticePrinted = true;
    console.log('PostgreSQL tests skipped: TEST_POSTGRES_URL is not set (running the SQLite half only).');
  }
  return kinds;
}

export function makeTempDir(prefix = 'agent-runs-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A hash of the migration files' names and contents: a new or changed migration makes new templates. */
const migrationsFingerprint = ((): string => {
  const dir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(dir).sort()) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  return hash.digest('hex').slice(0, 16);
})();

/**
 * The migrated SQLite template, made on first use by whichever test process gets there first (several
 * may race: each migrates its own file and renames it into place, which is atomic, so a copy never sees
 * a half-made template).
 */
async function sqliteTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `agent-runs-test-template-${migrationsFingerprint}.sqlite`);
  if (fs.existsSync(template)) return template;
  const dir = makeTempDir();
  const file = path.join(dir, 'template.sqlite');
  const { db, close } = await openDatabase({ databaseUrl: `sqlite:${file}` });
  try {
    await migrateToLatest(db);
  } finally {
    await close(); // the last connection's close folds the WAL into the file
  }
  fs.renameSync(file, template);
  fs.rmSync(dir, { recursive: true, force: true });
  return template;
}

/** A fresh SQLite file (the default database of server tests that are not about the dialect). */
export const sqliteKind: TestDatabaseKind = {
  dialect: 'sqlite',
  toString: () => 'sqlite',
  async create(options = {}) {
    const dataDir = makeTempDir();
    const file = path.join(dataDir, 'test.sqlite');
    if (options.migrate !== false) fs.copyFileSync(await sqliteTemplate(), file);
    const databaseUrl = `sqlite:${file}`;
    const { db, close } = await openDatabase({ databaseUrl });
    return {
      dialect: 'sqlite',
      databaseUrl,
      dataDir,
      db,
      async close() {
        await close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

function postgresKind(adminUrl: string): TestDatabaseKind {
  return {
    dialect: 'postgres',
    toString: () => 'postgres',
    async create(options = {}) {
      const name = `t_${randomBytes(6).toString('hex')}`;
      const template = options.migrate === false ? undefined : await postgresTemplate(adminUrl);
      await adminQuery(adminUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
      const databaseUrl = databaseUrlOf(adminUrl, name);
      const dataDir = makeTempDir();
      const { db, close } = await openDatabase({ databaseUrl }, { poolSize: 5 });
      return {
        dialect: 'postgres',
        databaseUrl,
        dataDir,
        db,
        async close() {
          await close();
          await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The migrated PostgreSQL template `tmpl_<fingerprint>`, made once on the server (it outlives this run,
 * for the next). An advisory lock makes concurrent test processes wait for the one that makes it; nothing
 * stays connected to it, as CREATE DATABASE … TEMPLATE requires.
 */
async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `tmpl_${migrationsFingerprint}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('agent-runs test template'))");
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      // Migrated under a temporary name and renamed when complete: a run stopped halfway leaves no template.
      const making = `${name}_making`;
      await client.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${making}`);
      const { db, close } = await openDatabase({ databaseUrl: databaseUrlOf(adminUrl, making) }, { poolSize: 1 });
      try {
        await migrateToLatest(db);
      } finally {
        await close();
      }
      await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
    }
  } finally {
    await client.end(); // ends the session, and with it the advisory lock
  }
  return name;
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
