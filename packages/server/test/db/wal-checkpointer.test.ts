/**
 * WAL checkpoints on a background thread (src/db/wal-checkpointer.ts): committed pages reach the database
 * file without the server's connection checkpointing, and closing the database stops the thread first.
 *
 * The observable: in WAL mode a commit only appends to `<file>-wal`; the database file grows when a
 * checkpoint copies the frames back. About 2 MB is committed here, under SQLite's own autocheckpoint
 * threshold (1000 frames, 4 MB), so without a background checkpointer nothing would copy it yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../src/db/database';
import type { Database } from '../../src/db/tables';
import { createLogger } from '../../src/logger';
import { makeTempDir } from '../support/databases';

const log = createLogger({ logLevel: 'silent' });

async function writeTwoMegabytes(db: Kysely<Database>): Promise<void> {
  await sql`create table filler (body blob not null)`.execute(db);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < 64; i++) await sql`insert into filler (body) values (randomblob(32768))`.execute(trx);
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await delay(25);
  }
  return true;
}

describe('WAL checkpoints on a background thread (SQLite)', () => {
  let file: string;
  let database: OpenDatabase | undefined;
  const sizeOf = (name: string) => (fs.existsSync(name) ? fs.statSync(name).size : 0);

  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('copies committed pages into the database file while the server connection does not checkpoint', async () => {
    file = path.join(makeTempDir(), 'db.sqlite');
    database = await openDatabase({ databaseUrl: `sqlite:${file}` }, { backgroundCheckpoints: { log } });
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(10_000);
    const before = sizeOf(file);

    await writeTwoMegabytes(database.db);

    expect(await waitFor(() => sizeOf(file) >= before + 2 * 1024 * 1024, 5_000)).toBe(true);
  });

  it('without it (short-lived processes), the same commit stays in the WAL', async () => {
    file = path.join(makeTempDir(), 'db.sqlite');
    database = await openDatabase({ databaseUrl: `sqlite:${file}` });
    // SQLite's own threshold: no thread was started (it raises this), so only this connection's commits
    // checkpoint, inside the commit itself; what the file holds after the commit is what it keeps.
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(1_000);
    const before = sizeOf(file);

    await writeTwoMegabytes(database.db);

    expect(sizeOf(file)).toBe(before);
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('close stops the thread first, so the last connection to close folds the WAL away', async () => {
    file = path.join(makeTempDir(), 'db.sqlite');
    database = await openDatabase({ databaseUrl: `sqlite:${file}` }, { backgroundCheckpoints: { log } });
    await writeTwoMegabytes(database.db);

    await database.close();
    database = undefined;

    // SQLite deletes the WAL only when the last connection to the file closes: the thread's is gone too.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(sizeOf(file)).toBeGreaterThan(2 * 1024 * 1024);
  });
});
