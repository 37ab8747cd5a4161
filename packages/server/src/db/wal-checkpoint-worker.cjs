// @ts-check
/**
 * The thread of the WAL checkpointer (wal-checkpointer.ts): its own connection to the SQLite file, running
 * a PASSIVE checkpoint every `intervalMs`. PASSIVE never waits for readers or writers, so the server's
 * connection keeps reading and committing while frames are copied back and the files are synced here.
 *
 * Plain CommonJS because a worker thread loads it directly: no TypeScript loader runs in this thread.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

/** @type {{ driver: string; file: string; intervalMs: number }} */
const { driver, file, intervalMs } = workerData;
/** @type {typeof import('better-sqlite3')} */
const Database = require(driver);

const db = new Database(file, { fileMustExist: true });
// The same durability as the server's connection: the WAL is synced before frames are copied back and the
// database file after, so a crash mid-checkpoint loses nothing.
db.pragma('synchronous = NORMAL');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    // Reported, not fatal: the next tick tries again, and the server's own fallback bounds the WAL meanwhile.
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}, intervalMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
