/**
 * Opens the database named by DATABASE_URL: SQLite through better-sqlite3 (WAL, busy timeout, foreign keys)
 * or PostgreSQL through a pg Pool. Returns the typed Kysely instance and the dialect.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Settings } from '../settings';
import { dialectOfUrl, type Dialect } from './dialect';
import type { Database } from './tables';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

export async function openDatabase(
  settings: Pick<Settings, 'databaseUrl'>,
  options: OpenDatabaseOptions = {},
): Promise<OpenDatabase> {
  const dialect = dialectOfUrl(settings.databaseUrl);
  const db = dialect === 'sqlite' ? openSqlite(settings.databaseUrl) : openPostgres(settings.databaseUrl, options);
  let closed = false;
  return {
    db,
    dialect,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

function openSqlite(databaseUrl: string): Kysely<Database> {
  const file = databaseUrl.slice('sqlite:'.length);
  const memory = file === ':memory:';
  if (!memory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(memory ? ':memory:' : file);
  if (!memory) sqlite.pragma('journal_mode = WAL');
  // Another process (the admin command, a second server) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small statement, and the
 * hot paths (ingress, claims) repeat the same SQL. Statements are reusable because Kysely runs one
 * query at a time on its single SQLite connection. Least recently used statements are dropped past the
 * cache size, so ad-hoc SQL cannot grow it without bound.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string): BetterSqlite3.Statement => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(source, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Round trip to the database (readiness). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
