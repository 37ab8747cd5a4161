/**
 * WAL checkpoints off the event loop (SQLite, server process only).
 *
 * By default SQLite checkpoints inside the commit that takes the WAL past 1000 frames: that commit copies
 * every frame back into the database file and waits for two fsyncs, on the server's only thread. Under a
 * steady write load this stalled the event loop for milliseconds every few hundred commits — the ingress
 * lost a third of its throughput to it, and every request in flight meanwhile paid it in latency.
 *
 * Here a worker thread with its own connection runs a PASSIVE checkpoint every CHECKPOINT_INTERVAL_MS
 * (wal-checkpoint-worker.cjs). The server's connection keeps a fallback: it still checkpoints itself if
 * the WAL reaches FALLBACK_AUTOCHECKPOINT_FRAMES. That matters because a PASSIVE checkpoint never blocks
 * writers, so under non-stop writes it may never catch the WAL's end, and SQLite rewinds the WAL only
 * after a checkpoint that did; the fallback checkpoint, run between commits, always does — and finds
 * almost everything already copied by the thread, so it costs little more than its fsyncs. If the thread
 * fails, SQLite's default threshold comes back.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import { codeRoot } from '../package-root';

const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's default `wal_autocheckpoint`. */
const DEFAULT_AUTOCHECKPOINT_FRAMES = 1000;
/** 40 MB of WAL at the default 4 KB page size. */
const FALLBACK_AUTOCHECKPOINT_FRAMES = 10_000;

export interface WalCheckpointer {
  /** Stops the thread (after its checkpoint in progress, if any) and closes its connection. */
  stop(): Promise<void>;
}

export function startWalCheckpointer(sqlite: BetterSqlite3.Database, file: string, log: Logger): WalCheckpointer {
  const worker = new Worker(path.join(codeRoot, 'db/wal-checkpoint-worker.cjs'), {
    // Plain CommonJS: none of this process's flags (a TypeScript loader's --import, say) is wanted, and
    // loading one made each thread's start cost a quarter of a second of CPU.
    execArgv: [],
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // A checkpointer alone must not keep the process alive.
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_FRAMES}`);

  let stopping = false;
  worker.on('message', (message: { error: string }) => log.warn({ err: message.error }, 'WAL checkpoint failed'));
  worker.on('error', (err) => log.error({ err }, 'WAL checkpointer stopped; the server connection checkpoints again'));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_FRAMES}`);
      resolve();
    }),
  );

  return {
    async stop() {
      stopping = true;
      // Referenced again, so the process waits for the thread to close its connection before exiting.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
