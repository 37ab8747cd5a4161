/**
 * Hot-path statements compiled once per dialect and re-run with new parameters.
 *
 * Building and compiling a Kysely query (immutable operation trees, then SQL text) costs more than running
 * a small indexed statement on SQLite — measured on this machine ~2.5× a precompiled run. The ingress runs
 * the same few statements for every delivery (and the automation lookup for every accepted one), so each is
 * written once as an ordinary Kysely builder over placeholders, compiled on first use for the database's
 * dialect, and afterwards only its parameters change.
 *
 * The builder must produce the same SQL whatever the values (true of ordinary where/values/onConflict
 * builders). The SQL holds one `?` per element of a list argument, so a statement is compiled once per
 * dialect and combination of list lengths (a multi-row insert: once per row count).
 *
 * On PostgreSQL these statements are also prepared by name on each connection (database.ts), so the server
 * parses and plans each once per connection instead of at every run (docs/decisions.md, Ingress on
 * PostgreSQL).
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { dialectOfDb } from './dialect';
import type { Database } from './tables';

/** Stands for argument `arg` (element `element` of it when the argument is a list). */
class Placeholder {
  constructor(
    readonly arg: number,
    readonly element: number,
  ) {}
}

/** SQL text of every compiled statement → the name PostgreSQL connections prepare it under. */
export const preparedStatementNames = new Map<string, string>();

type Value = string | number | Buffer | null;
type Arg = Value | readonly Value[];

export interface CompiledQueryOptions {
  /**
   * Prepare it by name on PostgreSQL (the default). A statement whose best plan depends on its values — how
   * many rows a search text or a metadata value matches — must be planned with them every time: after five
   * runs PostgreSQL may keep a generic plan that fits a rare value and not a common one.
   */
  prepareByName?: boolean;
}

export function compiledQuery<A extends Arg[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
  options: CompiledQueryOptions = {},
): (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>> {
  const compiled = new Map<string, CompiledQuery<R>>();
  return (db, ...args) => {
    const key = `${dialectOfDb(db)}:${args.map((arg) => (Array.isArray(arg) ? arg.length : '-')).join(',')}`;
    let query = compiled.get(key);
    if (!query) {
      const placeholders = args.map((arg, i) => (Array.isArray(arg) ? arg.map((_, j) => new Placeholder(i, j)) : new Placeholder(i, -1))) as unknown as A;
      query = build(db, ...placeholders).compile();
      compiled.set(key, query);
      if (options.prepareByName !== false && !preparedStatementNames.has(query.sql)) {
        preparedStatementNames.set(query.sql, `compiled_${preparedStatementNames.size}`);
      }
    }
    const parameters = query.parameters.map((p) => {
      if (!(p instanceof Placeholder)) return p;
      const arg = args[p.arg];
      if (p.element < 0) return arg;
      const list = arg as readonly unknown[];
      return list[p.element];
    });
    return db.executeQuery<R>({ ...query, parameters });
  };
}
