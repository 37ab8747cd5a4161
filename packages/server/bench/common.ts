/**
 * Helpers the benches share: settings from the environment, clean-up on every exit path, a seeded PRNG,
 * percentiles, /proc readings, the REST client and event stream of a bench server, and autocannon.
 */
import fs from 'node:fs';
import os from 'node:os';
import type pg from 'pg';
import type { ServerProcess } from './server-process';

/** An integer setting from the environment (empty or unset: `fallback`); throws below `min`. */
export function envInt(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be ${min === 0 ? 'a non-negative integer' : `an integer ≥ ${min}`}`);
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Cleanup on every exit path (child processes, temp dirs, databases), last registered first.

const cleanups: Array<() => Promise<void> | void> = [];
let interruptHandled = false;

/** Registers a clean-up for runCleanups, and on first use makes Ctrl-C run them before exiting. */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
  if (interruptHandled) return;
  interruptHandled = true;
  process.once('SIGINT', () => {
    console.error('\ninterrupted: cleaning up');
    void runCleanups().finally(() => process.exit(130));
  });
}

export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      console.error('cleanup failed:', err);
    }
  }
}

/** Runs a bench's `main`, then its clean-ups; on failure prints why and exits 1 after them. */
export function runBench(main: () => Promise<void>): void {
  main()
    .then(runCleanups)
    .catch(async (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      await runCleanups();
      process.exit(1);
    });
}

// ---------------------------------------------------------------------------------------------------
// Statistics and the machine

/** Deterministic randomness for the benches' data sets: mulberry32, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile of ascending `sorted`; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}
export const sortNumbers = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** USER_HZ: 100 on every Linux this runs on. */
export const CLOCK_TICKS = 100;

/**
 * The numeric fields of /proc/<pid>/stat after the command name (which may contain spaces): utime is
 * [11], stime [12], cutime [13], cstime [14], in CLOCK_TICKS. Throws where /proc is not available.
 */
export function procStatFields(pid: number | 'self'): number[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}

/** CPU time (user + system) so far of process `pid`, µs; throws once it has ended. */
export function processCpuMicros(pid: number): number {
  const fields = procStatFields(pid);
  return ((fields[11]! + fields[12]!) * 1_000_000) / CLOCK_TICKS;
}

/**
 * CPU time so far (µs, by pid) of the PostgreSQL processes serving `database`: its backends and the
 * cluster's WAL writer, background writer and checkpointer (shared with anyone else using that cluster).
 * Read from /proc, so PostgreSQL must run on this machine; `admin` is a connection to any of its databases.
 */
export async function postgresCpuMicros(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type IN ('walwriter', 'background writer', 'checkpointer')`,
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, processCpuMicros(pid));
    } catch {
      // the backend ended meanwhile
    }
  }
  return cpu;
}

// ---------------------------------------------------------------------------------------------------
// A bench server's REST API and run event stream (bench/server-process.ts), as its admin

export async function api<T>(server: ServerProcess, method: string, route: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(`${server.apiUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${server.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  let res: Response;
  try {
    res = await send();
  } catch (err) {
    // A pooled keep-alive connection the server closed while it sat idle (its keepAliveTimeout is 5 s,
    // e.g. during seeding): a GET is safe to send once more on a new connection.
    if (method !== 'GET') throw err;
    res = await send();
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The run's SSE events from the start of its log (Last-Event-ID: 0), as event kind and data text. */
export async function* runEvents(server: ServerProcess, runId: string, signal: AbortSignal): AsyncGenerator<{ kind: string | undefined; data: string }> {
  const res = await fetch(`${server.apiUrl}/agent/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${server.adminKey}`, accept: 'text/event-stream', 'last-event-id': '0' },
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`GET …/events → ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      const kind = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (data !== undefined) yield { kind, data };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// autocannon

/** The part of autocannon's API the benches use (the package ships no type declarations). */
export type Autocannon = (options: Record<string, unknown>) => Promise<{
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  requests: { average: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
}>;

export async function loadAutocannon(): Promise<Autocannon> {
  // Through a variable: the package ships no type declarations, so the type check must not resolve it.
  const autocannonModule = 'autocannon';
  return ((await import(autocannonModule)) as { default: Autocannon }).default;
}
