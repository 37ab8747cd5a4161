/**
 * SQLite with a second writer process (the admin command, a second server on the same file): a
 * transaction that reads before it writes must wait for the other writer, not fail. A deferred `BEGIN`
 * reads from a snapshot and then cannot upgrade to a writer once the other process has committed after
 * that snapshot (SQLITE_BUSY at once, whatever the busy timeout); `BEGIN IMMEDIATE` takes the write lock
 * first and waits for it under the busy timeout.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteKind, type TestDatabase } from '../support/databases';

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Another process that holds the write lock for `holdMs` while it inserts a team, then commits. */
function holdWriteLock(file: string, holdMs: number): Promise<{ exited: Promise<number | null> }> {
  const script = `
    const Database = require(process.argv[1]);
    const db = new Database(process.argv[2]);
    db.pragma('busy_timeout = 5000');
    db.exec('begin immediate');
    db.prepare("insert into teams (id, name, created_at) values ('team_other', 'other', '2026-11-21T10:00:00.000Z')").run();
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[3]));
    db.exec('commit');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script, betterSqlite3, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve({ exited }));
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}

describe('SQLite transactions next to another writer process', () => {
  let t: TestDatabase;
  afterEach(async () => {
    await t?.close();
  });

  it('a read-then-write transaction waits for the other writer and then commits', async () => {
    t = await sqliteKind.create();
    const holder = await holdWriteLock(t.databaseUrl.slice('sqlite:'.length), 300);

    const seen = await t.db.transaction().execute(async (trx) => {
      const teams = await trx.selectFrom('teams').select('id').execute();
      await trx.insertInto('teams').values({ id: 'team_mine', name: 'mine', created_at: '2026-11-21T10:00:01.000Z' }).execute();
      return teams.map((team) => team.id);
    });

    expect(await holder.exited).toBe(0);
    // The transaction ran after the other one committed, so it saw its row.
    expect(seen).toContain('team_other');
    const ids = (await t.db.selectFrom('teams').select('id').execute()).map((team) => team.id);
    expect(ids).toEqual(expect.arrayContaining(['team_other', 'team_mine']));
  });
});
