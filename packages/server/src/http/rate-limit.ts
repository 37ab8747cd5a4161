/**
 * The per-API-key REST request budget (contract: "429 rate_limited when an API key exceeds its request
 * budget (a server setting)"): a fixed window per key, read from the one clock and counted in the database
 * (table rest_rate_counters), so every process serving the API on one database enforces one budget
 * (docs/architecture.md §Several processes).
 *
 * One statement per request: `INSERT … ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + 1
 * RETURNING count` (SQLite ≥ 3.35, PostgreSQL), atomic on both, so concurrent requests on any number of
 * processes each get their own count. Refused requests count too (a client that keeps retrying early
 * stays refused until the window turns). Past windows are dropped by the REST retention job (./retention.ts).
 */
import type { RequestHandler } from 'express';
import { sql, type Kysely } from 'kysely';
import type { ServerContext } from '../context';
import { compiledQuery } from '../db/compiled-query';
import type { Database } from '../db/tables';
import { principalOf } from './auth';
import { rateLimited } from '../problems';

export function restRateLimit(ctx: ServerContext): RequestHandler {
  const windowSeconds = ctx.settings.windows.restRateWindowSeconds;
  const budget = ctx.settings.limits.restRequestsPerWindow;
  return (req, res, next) => {
    // The per-key budget needs a key; an operation served without one (authenticate) is not counted.
    if (res.locals.publicOperation === true) return next();
    const { keyId } = principalOf(req);
    const now = ctx.clock.now().getTime();
    const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds;
    countRequest(ctx.db, keyId, windowStart).then(({ rows }) => {
      if (Number(rows[0]!.count) <= budget) return next();
      const retryAfter = Math.max(1, Math.ceil(((windowStart + windowSeconds) * 1000 - now) / 1000));
      next(rateLimited(`Too many requests for this API key; retry after ${retryAfter} seconds.`, retryAfter));
    }, next);
  };
}

/** Compiled once (db/compiled-query.ts): it runs for every REST request. */
const countRequest = compiledQuery((db, keyId: string, windowStart: number) =>
  db
    .insertInto('rest_rate_counters')
    .values({ key_id: keyId, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['key_id', 'window_start']).doUpdateSet({ count: sql<number>`rest_rate_counters.count + 1` }))
    .returning('count'),
);

/** Drops the counters of windows that ended before `now` (the REST retention job). */
export async function deletePastRateWindows(db: Kysely<Database>, now: Date, windowSeconds: number): Promise<number> {
  const currentStart = Math.floor(now.getTime() / 1000 / windowSeconds) * windowSeconds;
  const result = await db.deleteFrom('rest_rate_counters').where('window_start', '<', currentStart).executeTakeFirst();
  return Number(result.numDeletedRows);
}
