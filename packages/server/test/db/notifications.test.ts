/**
 * db/notifications.ts on a real PostgreSQL database: a notice queued in a transaction arrives when it
 * commits (never when it rolls back), and the LISTEN connection comes back after the database dropped it.
 * SQLite has no notifications: queuing one there is a no-op.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { listenForNotifications, notifyOnCommit, type NotificationListener } from '../../src/db/notifications';
import { sqliteKind, testDatabases, type TestDatabase } from '../support/databases';

const postgres = testDatabases().find((kind) => kind.dialect === 'postgres');
const log = pino({ level: 'silent' });

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await delay(10);
  }
}

describe.runIf(postgres)('PostgreSQL notifications', () => {
  let t: TestDatabase;
  let listener: NotificationListener | undefined;
  const received: string[] = [];
  let established = 0;
  beforeEach(async () => {
    t = await postgres!.create();
    received.length = 0;
    established = 0;
    listener = listenForNotifications({
      databaseUrl: t.databaseUrl,
      channel: 'test_channel',
      log,
      onNotification: (payload) => received.push(payload),
      onListening: () => established++,
      initialBackoffMs: 50,
    });
    await until(() => listener!.listening, 5000, 'listening');
  });
  afterEach(async () => {
    await listener?.stop();
    await t.close();
  });

  it('delivers what a transaction queued when it commits, nothing of one that rolled back', async () => {
    await t.db
      .transaction()
      .execute(async (tx) => {
        await notifyOnCommit(tx, 'test_channel', 'rolled back');
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.db.transaction().execute(async (tx) => {
      await notifyOnCommit(tx, 'test_channel', 'first');
      await notifyOnCommit(tx, 'other_channel', 'not ours');
      // Not before the commit: a notice committed on another connection afterwards arrives, and alone
      // (PostgreSQL delivers a channel's notices in commit order, so 'first', had it gone out, would precede it).
      await notifyOnCommit(t.db, 'test_channel', 'committed meanwhile');
      await until(() => received.length > 0, 2000, 'the notice committed meanwhile');
      expect(received).toEqual(['committed meanwhile']);
    });
    await until(() => received.length > 1, 2000, 'the notification');
    expect(received).toEqual(['committed meanwhile', 'first']);
  });

  it('listens again after the database dropped the connection, and says so', async () => {
    expect(established).toBe(1);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`.execute(t.db);
    await until(() => established === 2 && listener!.listening, 5000, 'listening again');
    await notifyOnCommit(t.db, 'test_channel', 'after the drop');
    await until(() => received.includes('after the drop'), 2000, 'the notification after the reconnect');
  });
});

describe('SQLite notifications', () => {
  it('queue nothing (polling is the only way there)', async () => {
    const t = await sqliteKind.create();
    try {
      await expect(t.db.transaction().execute((tx) => notifyOnCommit(tx, 'test_channel', 'nowhere'))).resolves.toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
