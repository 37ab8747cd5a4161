/**
 * The ONLY place where SQLite and PostgreSQL differ. Everything else writes portable Kysely queries and asks
 * this module when a dialect matters (claim locking, error codes, column types, count results).
 */
import { PostgresAdapter, sql, SqliteAdapter, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Dialect selected by a DATABASE_URL (`sqlite:…` or `postgres://…`). */
export function dialectOfUrl(databaseUrl: string): Dialect {
  if (databaseUrl.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgres';
  throw new Error('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
}

/** Dialect of an open Kysely instance (migrations only get the Kysely instance). */
export function dialectOfDb(db: Kysely<any>): Dialect {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error(`unsupported Kysely adapter ${adapter.constructor.name}`);
}

/**
 * Row locking for the worker claim. PostgreSQL: `FOR UPDATE SKIP LOCKED` lets concurrent claimers pass over
 * each other's rows. SQLite has one writer at a time, so the claim's `UPDATE … WHERE state = 'QUEUED'
 * RETURNING` is already atomic and the clause (a syntax error there) is left out.
 */
export function forUpdateSkipLocked<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, dialect: Dialect): QB {
  return dialect === 'postgres' ? (qb.forUpdate().skipLocked() as QB) : qb;
}

/**
 * Row locking inside a transaction (PostgreSQL `FOR UPDATE`: a second transaction waits for the first to
 * commit). SQLite transactions start with BEGIN IMMEDIATE (db/database.ts), so they already run one at a
 * time and the clause (a syntax error there) is left out.
 */
export function forUpdate<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, dialect: Dialect): QB {
  return dialect === 'postgres' ? (qb.forUpdate() as QB) : qb;
}

/** True when `err` is a unique-constraint (or primary-key) violation on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  // better-sqlite3: SqliteError.code; pg: SQLSTATE 23505 unique_violation.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * True when PostgreSQL broke a deadlock by aborting this statement (SQLSTATE 40P01): nothing of it was
 * written, and the same statement may simply be run again. SQLite serialises writers, so never there.
 */
export function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '40P01';
}

/**
 * True when the database refused a write for lack of space: SQLite's SQLITE_FULL (the disk holding the file
 * or its WAL is full) and its SQLITE_IOERR family (a write or fsync that failed), PostgreSQL's SQLSTATE
 * 53100 disk_full. Such a write may succeed once space returns (problems.ts storageFull).
 */
export function isOutOfStorage(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === '53100';
}

/** SQLSTATEs of a PostgreSQL server going away: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
/** Socket errors of a connection that could not be made or was cut. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when the database could not be reached or dropped the connection under the query — PostgreSQL
 * stopped or restarting: refused or cut sockets, SQLSTATE class 08 (connection exception) and 57P01–57P03,
 * and pg's own errors for a connection that ended (which carry no code). The same request may succeed once
 * the server is back (problems.ts databaseUnavailable); the pool reconnects by itself.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  // Node's connect to a name with several addresses fails with one error per address.
  if (err instanceof AggregateError) return err.errors.length > 0 && err.errors.every(isDatabaseUnreachable);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return CONNECTION_ERRNOS.has(code) || SERVER_GOING_AWAY.has(code) || code.startsWith('08');
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /^Connection terminated|^Client has encountered a connection error and is not queryable|^Client was closed and is not queryable/.test(message)
  );
}

/** `count(…)` comes back as a number from SQLite and as a bigint string from PostgreSQL. */
export function toCount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value !== '') return Number(value);
  return 0;
}

/** Column type for binary data (`Buffer` in tables.ts). */
export const binaryType = (dialect: Dialect): 'blob' | 'bytea' => (dialect === 'postgres' ? 'bytea' : 'blob');

/** Normalises a binary column value to a Buffer (both drivers return Buffers; this guards Uint8Array). */
export function toBuffer(value: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value);
}

/**
 * A top-level string field of a JSON-text column (e.g. `resolved_config` → `name`), for filters.
 * Column and field are code constants, never request input (checked, then inlined).
 */
export function jsonTextField(dialect: Dialect, column: string, field: string): RawBuilder<string | null> {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column) || !/^[a-z_][a-z0-9_]*$/i.test(field)) {
    throw new Error(`jsonTextField: unsafe identifier ${column}/${field}`);
  }
  return dialect === 'postgres'
    ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(field)})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${field}`)})`;
}
