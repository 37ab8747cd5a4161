/**
 * Retention deletes in batches, yielding to other work between them: on SQLite a statement holds the
 * process while it runs, and a day of rows deleted at once would stall every request for as long.
 */
import { setImmediate } from 'node:timers/promises';

/** Calls `deleteBatch(batchSize)` until it deletes fewer than `batchSize` rows; returns how many it deleted in all. */
export async function deleteInBatches(deleteBatch: (batchSize: number) => Promise<number>, batchSize: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteBatch(batchSize);
    deleted += batch;
    if (batch < batchSize) return deleted;
    await setImmediate();
  }
}
