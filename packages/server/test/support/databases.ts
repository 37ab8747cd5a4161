/**
 * The databases every DB-level test runs on: a fresh SQLite file always, and a fresh PostgreSQL database
 * when TEST_POSTGRES_URL is set (an admin URL; each `create()` makes `t_<random>` and drops it on close).
 *
 *   describe.each(testDatabases())('runs repository ($dialect)', (kind) => {
 *     let t: TestDatabase;
 *     beforeEach(async () => { t = await kind.create(); });
 *     afterEach(() => t.close());
 *   });
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** A fresh SQLite file (the default database of server tests that are not about the dialect). */
export const sqliteKind: TestDatabaseKind = {
  dialect: 'sqlite',
  toString: () => 'sqlite',
  async create(options = {}) {
    const dataDir = makeTempDir();
    const databaseUrl = `sqlite:${path.join(dataDir, 'test.sqlite')}`;
    const { db, close } = await openDatabase({ databaseUrl });
    if (options.migrate !== false) await migrateToLatest(db);
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
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const databaseUrl = url.toString();
      const dataDir = makeTempDir();
      const { db, close } = await openDatabase({ databaseUrl }, { poolSize: 5 });
      if (options.migrate !== false) await migrateToLatest(db);
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

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
