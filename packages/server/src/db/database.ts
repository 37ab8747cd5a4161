/**
 * Opens the database named by DATABASE_URL: SQLite through better-sqlite3 (WAL, busy timeout, foreign keys)
 * or PostgreSQL through a pg Pool. Returns the typed Kysely instance and the dialect.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  sql,
  SqliteDialect,
  SqliteDriver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files';
import type { Settings } from '../settings';
import { preparedStatementNames } from './compiled-query';
import { dialectOfUrl, type Dialect } from './dialect';
import type { Database } from './tables';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /**
   * SQLite file: checkpoint the WAL on a background thread (wal-checkpointer.ts), reporting failures to
   * `log`. For the long-running server; short-lived processes (migrate, admin) leave it to SQLite.
   */
  backgroundCheckpoints?: { log: Logger };
}

export async function openDatabase(settings: Pick<Settings, 'databaseUrl'>, options: OpenDatabaseOptions = {}): Promise<OpenDatabase> {
  const dialect = dialectOfUrl(settings.databaseUrl);
  let checkpointer: WalCheckpointer | undefined;
  let db: Kysely<Database>;
  if (dialect === 'sqlite') {
    const { sqlite, file } = openSqlite(settings.databaseUrl);
    if (file && options.backgroundCheckpoints) checkpointer = startWalCheckpointer(sqlite, file, options.backgroundCheckpoints.log);
    db = new Kysely<Database>({ dialect: new ImmediateTransactionsDialect(sqlite) });
  } else {
    db = openPostgres(settings.databaseUrl, options);
  }
  let closed = false;
  return {
    db,
    dialect,
    async close() {
      if (closed) return;
      closed = true;
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** The connection, and its file (undefined for an in-memory database). */
function openSqlite(databaseUrl: string): { sqlite: BetterSqlite3.Database; file: string | undefined } {
  const name = databaseUrl.slice('sqlite:'.length);
  const file = name === ':memory:' ? undefined : name;
  if (file) {
    ensurePrivateDir(path.dirname(file));
    ensurePrivateFile(file);
  }
  const sqlite = new BetterSqlite3(file ?? ':memory:');
  if (file) sqlite.pragma('journal_mode = WAL');
  // Another process (the admin command, a second server) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return { sqlite, file };
}

/**
 * Transactions start with `BEGIN IMMEDIATE`. A deferred `BEGIN` reads from a snapshot and must upgrade to
 * a writer at its first write; when another process (the admin command, a second server on the same
 * file) has committed since that snapshot, the upgrade fails at once with SQLITE_BUSY, busy timeout or
 * not. Taking the write lock at `BEGIN` makes such a transaction wait for the other writer instead. (One
 * connection per process, so this costs no concurrency inside the server.)
 */
class ImmediateTransactionsDialect extends SqliteDialect {
  private readonly driverConfig: SqliteDialectConfig;
  private readonly sqlite: BetterSqlite3.Database;

  constructor(sqlite: BetterSqlite3.Database) {
    const config = { database: withStatementCache(sqlite) };
    super(config);
    this.driverConfig = config;
    this.sqlite = sqlite;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionsDriver(this.driverConfig, this.sqlite);
  }
}

class ImmediateTransactionsDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: BetterSqlite3.Database,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back by itself when a statement in it fails with SQLITE_FULL, SQLITE_IOERR,
   * SQLITE_BUSY or SQLITE_NOMEM. A ROLLBACK after that fails ("no transaction is active"), and Kysely would
   * throw that error in place of the one that caused it: a full disk would read as an internal error
   * instead of a 503 (problems.ts storageFull).
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SQLite driver uses of a prepared statement. */
type DriverStatement = Pick<BetterSqlite3.Statement, 'reader' | 'all' | 'run' | 'iterate'>;

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small statement, and the
 * hot paths (ingress, claims) repeat the same SQL. Statements are reusable because Kysely runs one
 * query at a time on its single SQLite connection. Least recently used statements are dropped past the
 * cache size, so ad-hoc SQL cannot grow it without bound. Statements that return rows are wrapped in
 * RowStatement.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, DriverStatement>();
  const prepare = (source: string): DriverStatement => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      const prepared = sqlite.prepare(source);
      statement = prepared.reader ? new RowStatement(prepared) : prepared;
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

type Row = Record<string, unknown>;

/**
 * A statement that returns rows. better-sqlite3 builds each row object one property at a time from
 * native code, which costs more than reading the row itself (two thirds of a 20-run list page). In raw
 * mode it returns arrays instead, and a row constructor compiled once per statement from its column
 * names turns each into the same object: same keys in the same order, a later duplicate name winning.
 */
class RowStatement implements DriverStatement {
  readonly reader = true;
  private readonly statement: BetterSqlite3.Statement<unknown[], unknown[]>;
  private readonly toRow: (values: unknown[]) => Row;

  constructor(statement: BetterSqlite3.Statement) {
    this.statement = statement.raw(true) as BetterSqlite3.Statement<unknown[], unknown[]>;
    this.toRow = rowConstructor(statement.columns().map((column) => column.name));
  }

  all(...params: unknown[]): Row[] {
    const rows = this.statement.all(...params) as unknown[];
    for (let i = 0; i < rows.length; i++) rows[i] = this.toRow(rows[i] as unknown[]);
    return rows as Row[];
  }

  run(...params: unknown[]): BetterSqlite3.RunResult {
    return this.statement.run(...params);
  }

  *iterate(...params: unknown[]): IterableIterator<Row> {
    for (const values of this.statement.iterate(...params)) yield this.toRow(values as unknown[]);
  }
}

function rowConstructor(columns: string[]): (values: unknown[]) => Row {
  // An object literal's "__proto__" key would set the prototype instead of a property.
  if (columns.includes('__proto__')) return (values) => Object.fromEntries(columns.map((name, i) => [name, values[i]]));
  // One object literal per statement: V8 creates every row with the same shape in a single step.
  const body = `return {${columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')}};`;
  // oxlint-disable-next-line typescript/no-implied-eval -- the body is built from JSON.stringify'd column names only
  return new Function('values', body) as (values: unknown[]) => Row;
}

function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor a checked-out one (pg-pool drops its own listener at checkout): a server that ends the connection
  // between two queries (PostgreSQL restarting) makes the client emit 'error' with no query to fail. The
  // next query on it fails instead, and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new CallbackQueryPool(pool) }) });
}

/**
 * The pg Pool as Kysely sees it, with every query sent through pg's callback API, and the hot-path statements
 * of compiled-query.ts as named prepared statements (pg prepares each once per connection; the rest go
 * unnamed, parsed and planned at every run). Measured on the ingress at 100 connections: PostgreSQL's CPU per
 * delivery 201 → 92 µs.
 *
 * Called without a callback, pg's `client.query` answers with a promise of its own — and on Node 20 every
 * result of that path outlives two young-generation collections and is promoted to the old generation.
 * Measured with `--trace-gc-nvp` at 330 list requests/s: 1.3 MB promoted per scavenge (all of each page's
 * rows), 3–5 ms scavenges and a full collection every ~2.5 s; through the callback, with a plain promise
 * around it, 38 KB and 1.1–1.4 ms scavenges (docs/decisions.md).
 */
class CallbackQueryPool implements PostgresPool {
  /** One wrapper per pg client, so Kysely's per-client connection cache keeps working. */
  private readonly clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let wrapped = this.clients.get(client);
    if (!wrapped) {
      wrapped = callbackQueryClient(client);
      this.clients.set(client, wrapped);
    }
    return wrapped;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

function callbackQueryClient(client: pg.PoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>) {
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    return new Promise<PostgresQueryResult<R>>((resolve, reject) =>
      client.query({ text: sqlOrCursor, values: parameters as unknown[], name: preparedStatementNames.get(sqlOrCursor) }, (err: Error, result: unknown) =>
        err ? reject(err) : resolve(result as unknown as PostgresQueryResult<R>),
      ),
    );
  }
  // pg sets a new release function on the client at every checkout: look it up at call time.
  return { query, release: () => client.release() };
}

/** Round trip to the database (readiness). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
