/**
 * Group commit for the ingress's write step (6–8 of the pipeline): authenticated deliveries that arrive
 * together share one database transaction, so one commit (and on PostgreSQL one WAL flush) serves many.
 *
 * The pipeline's guarantee is unchanged: a delivery's rate slot, its log row and the runs it starts land in
 * the same commit, and its 202 goes out only after that commit. Each delivery runs its own `work` against
 * the shared transaction in arrival order, so two identical deliveries in one batch still dedup (the second
 * sees the first's Accepted row and is logged as its Duplicate).
 *
 * Batching adds no waiting of its own: the first delivery is committed on the next turn of the event loop
 * (`setImmediate`, so deliveries read in the same I/O poll join it); deliveries that arrive while a commit
 * is in flight form the next batch. On SQLite the statements are synchronous, so batches are what one poll
 * brings; on PostgreSQL they grow with the commit latency under load.
 *
 * If a batch's transaction fails, each of its deliveries is retried alone in its own transaction, so one
 * failing delivery (or a deadlock between instances) never fails its neighbours. `work` must therefore have
 * no effects outside the transaction: it can run twice, and only the committed run's result is returned.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/tables';

/** Bounds how long one transaction holds the write lock (SQLite) or the counter row (PostgreSQL). */
const MAX_BATCH = 64;

export type TransactionWork<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

export interface GroupCommit {
  /** Runs `work` in a transaction shared with the deliveries around it; settles after the commit. */
  run<T>(work: TransactionWork<T>): Promise<T>;
  /** Settles once every submitted delivery has been committed or has failed (shutdown). */
  drain(): Promise<void>;
}

export function createGroupCommit(db: Kysely<Database>): GroupCommit {
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      await commitBatch(db, batch);
    }
    flushing = undefined;
  };

  return {
    run<T>(work: TransactionWork<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        flushing ??= new Promise<void>((started) => setImmediate(started)).then(flush);
      });
    },
    async drain() {
      while (flushing) await flushing;
    },
  };
}

async function commitBatch(db: Kysely<Database>, batch: Pending[]): Promise<void> {
  if (batch.length > 1) {
    const results = await db
      .transaction()
      .execute(async (trx) => {
        const out: unknown[] = [];
        for (const pending of batch) out.push(await pending.work(trx));
        return out;
      })
      // Some delivery's work failed and took the batch with it: each is retried alone, below.
      .catch(() => undefined);
    if (results) {
      batch.forEach((pending, i) => pending.resolve(results[i]));
      return;
    }
  }
  for (const pending of batch) {
    try {
      pending.resolve(await db.transaction().execute(pending.work));
    } catch (err) {
      pending.reject(err);
    }
  }
}
