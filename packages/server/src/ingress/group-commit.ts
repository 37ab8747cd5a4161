/**
 * Group commit for the ingress's write step (7–9 of the pipeline): authenticated deliveries that arrive
 * together share one database transaction, so one commit (and on PostgreSQL one WAL flush) serves many.
 *
 * The pipeline's guarantee is unchanged: a delivery's rate slot, its log row and the runs it starts land in
 * the same commit, and its answer goes out only after that commit. The batch is written by one call of
 * `writeBatch`, which gets the deliveries in arrival order and returns one result per delivery: it can use
 * multi-row statements (one counter update and one log insert for the whole batch, pipeline.ts), and must
 * treat the batch as if its deliveries had been written one after another (two identical deliveries in one
 * batch still dedup: the second is logged as the first's Duplicate).
 *
 * Batching adds no waiting of its own: the first delivery is committed on the next turn of the event loop
 * (`setImmediate`, so deliveries read in the same I/O poll join it); deliveries that arrive while a commit
 * is in flight form the next batch. On SQLite the statements are synchronous, so batches are what one poll
 * brings; on PostgreSQL they grow with the commit latency under load.
 *
 * If a batch's transaction fails, each of its deliveries is retried alone in its own transaction, so one
 * failing delivery (or a deadlock between instances) never fails its neighbours. `writeBatch` must therefore
 * have no effects outside the transaction: a delivery can be written twice, and only the committed result is
 * returned.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/tables';

/** Bounds how long one transaction holds the write lock (SQLite) or the counter row (PostgreSQL). */
const MAX_BATCH = 64;

/** Writes `items` in `trx` and returns one result per item, in order. */
export type WriteBatch<Item, Result> = (trx: Transaction<Database>, items: readonly Item[]) => Promise<Result[]>;

interface Pending<Item, Result> {
  item: Item;
  resolve(value: Result): void;
  reject(reason: unknown): void;
}

export interface GroupCommit<Item, Result> {
  /** Writes `item` in a transaction shared with the deliveries around it; settles after the commit. */
  run(item: Item): Promise<Result>;
  /** Settles once every submitted delivery has been committed or has failed (shutdown). */
  drain(): Promise<void>;
}

export function createGroupCommit<Item, Result>(db: Kysely<Database>, writeBatch: WriteBatch<Item, Result>): GroupCommit<Item, Result> {
  let queue: Pending<Item, Result>[] = [];
  let flushing: Promise<void> | undefined;

  const commitBatch = async (batch: Pending<Item, Result>[]): Promise<void> => {
    if (batch.length > 1) {
      const results = await db
        .transaction()
        .execute((trx) =>
          writeBatch(
            trx,
            batch.map((pending) => pending.item),
          ),
        )
        // Some delivery failed and took the batch with it: each is retried alone, below.
        .catch(() => undefined);
      if (results) {
        batch.forEach((pending, i) => pending.resolve(results[i]!));
        return;
      }
    }
    for (const pending of batch) {
      try {
        const [result] = await db.transaction().execute((trx) => writeBatch(trx, [pending.item]));
        pending.resolve(result!);
      } catch (err) {
        pending.reject(err);
      }
    }
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      await commitBatch(batch);
    }
    flushing = undefined;
  };

  return {
    run(item: Item): Promise<Result> {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        flushing ??= new Promise<void>((started) => setImmediate(started)).then(flush);
      });
    },
    async drain() {
      while (flushing) await flushing;
    },
  };
}
