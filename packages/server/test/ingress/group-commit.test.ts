/**
 * Group commit (src/ingress/group-commit.ts): deliveries submitted together share one transaction, each
 * gets its own result, and a delivery whose work fails neither fails its neighbours nor makes them write twice.
 * Here each item is a piece of work the batch writer runs in order; rows go to rate_limit_counters, a table
 * with no foreign keys, used here as a scratch table.
 */
import type { Transaction } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import type { Database } from '../../src/db/tables';
import { createGroupCommit, type GroupCommit } from '../../src/ingress/group-commit';

type Work = (trx: Transaction<Database>) => Promise<unknown>;

const runInOrder = async (trx: Transaction<Database>, works: readonly Work[]) => {
  const results: unknown[] = [];
  for (const work of works) results.push(await work(trx));
  return results;
};
import { testDatabases, type TestDatabase } from '../support/databases';

describe.each(testDatabases())('group commit (%s)', (kind) => {
  let t: TestDatabase;
  let group: GroupCommit<Work, unknown>;
  beforeEach(async () => {
    t = await kind.create();
    group = createGroupCommit(t.db, runInOrder);
  });
  afterEach(() => t.close());

  const keysInDatabase = async () => (await t.db.selectFrom('rate_limit_counters').select('key').orderBy('key').execute()).map((r) => r.key);

  const insertKey = (key: string) => async (trx: Transaction<Database>) => {
    await trx.insertInto('rate_limit_counters').values({ key, window_start: 0, count: 1 }).execute();
    return key;
  };

  it('answers every delivery with its own result after the commit', async () => {
    const results = await Promise.all(['a', 'b', 'c'].map((key) => group.run(insertKey(key))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(await keysInDatabase()).toEqual(['a', 'b', 'c']);
  });

  it('runs deliveries submitted together in one transaction, in arrival order', async () => {
    // A second connection sees only committed rows: one shared transaction shows it none until the end.
    const observer = await openDatabase({ databaseUrl: t.databaseUrl });
    try {
      const committedCount = async () =>
        Number(
          (
            await observer.db
              .selectFrom('rate_limit_counters')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const order: string[] = [];
      const seenOutside = await Promise.all(
        ['a', 'b', 'c'].map((key) =>
          group.run(async (trx) => {
            order.push(key);
            await insertKey(key)(trx);
            return committedCount();
          }),
        ),
      );
      expect(order).toEqual(['a', 'b', 'c']);
      expect(seenOutside).toEqual([0, 0, 0]);
      expect(await committedCount()).toBe(3);
    } finally {
      await observer.close();
    }
  });

  it('a failing delivery fails alone: its neighbours commit exactly once', async () => {
    const boom = new Error('this delivery cannot be written');
    const outcomes = await Promise.allSettled([
      group.run(insertKey('before')),
      group.run(async (trx) => {
        await insertKey('failing')(trx);
        throw boom;
      }),
      group.run(insertKey('after')),
    ]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'before' },
      { status: 'rejected', reason: boom },
      { status: 'fulfilled', value: 'after' },
    ]);
    expect(await keysInDatabase()).toEqual(['after', 'before']);
  });

  it('drain waits for deliveries already submitted', async () => {
    const pending = group.run(insertKey('late'));
    await group.drain();
    expect(await keysInDatabase()).toEqual(['late']);
    await expect(pending).resolves.toBe('late');
  });
});
