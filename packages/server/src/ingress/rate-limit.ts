/**
 * The ingress limits, kept in the database (table rate_limit_counters) so every server instance on one
 * database enforces one limit:
 *
 * - delivery rate: `limits.deliveriesPerWindow` (60) authenticated deliveries per `windows.rateLimitWindowSeconds`
 *   (60 s) per webhook — key `deliveries:<webhook id>`;
 * - failed-authentication budget: `limits.authFailuresPerWindow` (10) failed attempts per window per webhook
 *   AND sender address (ingress/sender.ts) — key `auth-failures:<webhook id>:<sender>`. Only failures take
 *   and are refused slots (pipeline.ts).
 *
 * Algorithm: sliding-window approximation over two fixed windows (the counting scheme of Cloudflare's and
 * nginx's limiters). Counts are kept per fixed window; the previous window's count is weighted by how much
 * of it still overlaps the sliding window ending now:
 *
 *     estimate = previous × (window − elapsed) / window + current
 *
 * A plain fixed window would let a sender put 2 × limit through around a window boundary; this keeps any
 * sliding minute close to the limit while needing only two counter rows per key.
 *
 * Taking a slot is one atomic conditional upsert — `INSERT … ON CONFLICT (key, window_start) DO UPDATE SET
 * count = count + 1 WHERE count < cap RETURNING count` (SQLite ≥ 3.35, PostgreSQL) — so concurrent requests
 * on any number of instances never push the current window past its cap, and refused attempts are not
 * counted (a sender that keeps retrying early is not punished further). Deliveries committed together take
 * their slots with one such upsert of `count + n` while the window has room for all n (`takeSlots`).
 * Retry-After is the whole number of seconds until the estimate first leaves room for one more
 * (`retryAfterMs`).
 *
 * The counts are read once per delivery, together with the webhook (resolve.ts), as a `CounterSnapshot`:
 * within a fixed window a count only grows, so a snapshot that already shows a key full is still right
 * later, and the upsert's own condition decides everything else.
 */
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock';
import { compiledQuery } from '../db/compiled-query';
import type { Database } from '../db/tables';

export interface WindowLimit {
  limit: number;
  windowSeconds: number;
}

export type SlotVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Where `nowMs` falls in the fixed windows of `windowSeconds`. */
export interface WindowPosition {
  windowMs: number;
  /** Epoch seconds of the current fixed window (the row key). */
  currentStart: number;
  previousStart: number;
  /** Milliseconds since the current window began. */
  elapsedMs: number;
}

export function windowPosition(nowMs: number, windowSeconds: number): WindowPosition {
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return { windowMs, currentStart: startMs / 1000, previousStart: startMs / 1000 - windowSeconds, elapsedMs: nowMs - startMs };
}

/** Counts of some keys in the current and previous fixed window, as read at one moment. */
export interface CounterSnapshot {
  currentStart: number;
  previousStart: number;
  /** The keys that were read (a key without rows has counted nothing yet). */
  keys: ReadonlySet<string>;
  counts: Map<string, { previous: number; current: number }>;
}

/** Builds a snapshot from counter rows (`window_start` may come back as a string: BIGINT on PostgreSQL). */
export function counterSnapshot(
  position: WindowPosition,
  keys: Iterable<string>,
  rows: Iterable<{ key: string | null; window_start: number | string | null; count: number | string | null }>,
): CounterSnapshot {
  const counts = new Map<string, { previous: number; current: number }>();
  for (const row of rows) {
    if (row.key === null || row.window_start === null || row.count === null) continue;
    const entry = counts.get(row.key) ?? { previous: 0, current: 0 };
    if (Number(row.window_start) === position.currentStart) entry.current = Number(row.count);
    else if (Number(row.window_start) === position.previousStart) entry.previous = Number(row.count);
    counts.set(row.key, entry);
  }
  return { currentStart: position.currentStart, previousStart: position.previousStart, keys: new Set(keys), counts };
}

/** How many attempts the current fixed window may hold right now (may be ≤ 0). */
export function currentWindowCap(limit: number, previousCount: number, elapsedMs: number, windowMs: number): number {
  return limit - Math.floor((previousCount * (windowMs - elapsedMs)) / windowMs);
}

/**
 * Milliseconds from now until `currentWindowCap` exceeds `currentCount` (assuming nothing else arrives).
 * Pure: exported for its own unit tests.
 */
export function retryAfterMs(limit: number, previousCount: number, currentCount: number, elapsedMs: number, windowMs: number): number {
  if (currentCount < currentWindowCap(limit, previousCount, elapsedMs, windowMs)) return 0;
  // Still in this window: the previous window's weight has to fall far enough.
  if (currentCount < limit && previousCount > 0) {
    // Need floor(P × (W − e − d) / W) ≤ L − C − 1, i.e. P × (W − e − d) < (L − C) × W.
    const d = Math.floor(windowMs - elapsedMs - ((limit - currentCount) * windowMs) / previousCount) + 1;
    if (elapsedMs + d < windowMs) return Math.max(d, 1);
  }
  // In the next window the current count becomes the previous one: need C × (W − e') < L × W.
  const untilNext = windowMs - elapsedMs;
  const intoNext = currentCount < limit ? 0 : Math.floor(windowMs - (limit * windowMs) / currentCount) + 1;
  return untilNext + intoNext;
}

const toSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** Reads the counters of `keys` for the windows around `position` (one query). */
export async function readCounters(db: Kysely<Database>, keys: string[], position: WindowPosition): Promise<CounterSnapshot> {
  const rows = await db
    .selectFrom('rate_limit_counters')
    .select(['key', 'window_start', 'count'])
    .where('key', 'in', keys)
    .where('window_start', 'in', [position.previousStart, position.currentStart])
    .execute();
  return counterSnapshot(position, keys, rows);
}

/** A snapshot for the current windows: the given one if it is still current, else a fresh read. */
async function currentSnapshot(db: Kysely<Database>, key: string, p: WindowPosition, snapshot?: CounterSnapshot): Promise<CounterSnapshot> {
  return snapshot && snapshot.currentStart === p.currentStart && snapshot.keys.has(key) ? snapshot : readCounters(db, [key], p);
}

/** Takes one slot for `key` if the sliding window has room; otherwise says how long to wait. */
export async function takeSlot(db: Kysely<Database>, clock: Clock, key: string, limit: WindowLimit, snapshot?: CounterSnapshot): Promise<SlotVerdict> {
  return (await takeSlots(db, clock, key, limit, 1, snapshot))[0]!;
}

/**
 * Takes `wanted` slots for `key` in order, as `wanted` calls of takeSlot would, for deliveries that commit
 * together (group-commit.ts). While the window has room for all of them one upsert adds them at once
 * (`count + wanted ≤ cap`), so a batch updates the counter row once; near the cap they are taken one at a
 * time, so exactly as many are granted as there is room for, and the rest are refused.
 */
export async function takeSlots(
  db: Kysely<Database>,
  clock: Clock,
  key: string,
  limit: WindowLimit,
  wanted: number,
  snapshot?: CounterSnapshot,
): Promise<SlotVerdict[]> {
  const p = windowPosition(clock.now().getTime(), limit.windowSeconds);
  const { previous, current } = (await currentSnapshot(db, key, p, snapshot)).counts.get(key) ?? { previous: 0, current: 0 };
  const cap = currentWindowCap(limit.limit, previous, p.elapsedMs, p.windowMs);
  const refuse = (count: number): SlotVerdict => ({
    allowed: false,
    retryAfterSeconds: toSeconds(retryAfterMs(limit.limit, previous, Math.max(count, cap), p.elapsedMs, p.windowMs)),
  });
  const allowed: SlotVerdict = { allowed: true };
  if (current >= cap) return Array<SlotVerdict>(wanted).fill(refuse(current));
  if (wanted <= cap && (await upsertBelowCap(db, key, p.currentStart, wanted, cap - wanted)).rows.length > 0) {
    return Array<SlotVerdict>(wanted).fill(allowed);
  }
  const verdicts: SlotVerdict[] = [];
  // No room for all: one at a time until the first refusal (the count only grows: none is left after it).
  // A single slot was refused by the same statement just now.
  if (wanted > 1) {
    while (verdicts.length < wanted && (await upsertBelowCap(db, key, p.currentStart, 1, cap - 1)).rows.length > 0) verdicts.push(allowed);
  }
  while (verdicts.length < wanted) verdicts.push(refuse(cap));
  return verdicts;
}

/**
 * The atomic conditional upsert of `added` slots, only if the count stays ≤ cap (`countAtMost` = cap −
 * added); compiled once (compiled-query.ts): it runs for every batch of deliveries.
 */
const upsertBelowCap = compiledQuery((db, key: string, windowStart: number, added: number, countAtMost: number) =>
  db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: windowStart, count: added })
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet({ count: sql<number>`rate_limit_counters.count + ${added}` })
        .where('rate_limit_counters.count', '<=', countAtMost),
    )
    .returning('count'),
);

// The two ingress limits, named for the pipeline.

export const deliveryRateKey = (webhookId: string): string => `deliveries:${webhookId}`;
export const authFailureKey = (webhookId: string, sender: string): string => `auth-failures:${webhookId}:${sender}`;
