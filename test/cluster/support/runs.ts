/**
 * What the cluster tests read of runs straight from the database (the runs' own records, not a test hook):
 * their state events with timestamps, and the executions their output witnesses.
 */
import type { TestDatabase } from '../../../packages/server/test/support/databases';
import { executionWitness } from './cluster';

type Db = TestDatabase['db'];

export interface StateChange {
  state: string;
  at: number;
}

/** Each run's state events in order (`run_id` → changes), for the runs of `runIds` or every run. */
export async function stateHistories(db: Db, runIds?: string[]): Promise<Map<string, StateChange[]>> {
  let query = db.selectFrom('run_events').select(['run_id', 'data', 'created_at']).where('kind', '=', 'state');
  if (runIds) query = query.where('run_id', 'in', runIds);
  const rows = await query.orderBy('run_id').orderBy('seq').execute();
  const histories = new Map<string, StateChange[]>();
  for (const row of rows) {
    const change = { state: (JSON.parse(row.data) as { state: string }).state, at: Date.parse(row.created_at) };
    histories.set(row.run_id, [...(histories.get(row.run_id) ?? []), change]);
  }
  return histories;
}

/** How many executions each run's output witnesses (`run_id` → count; runs without one are absent). */
export async function witnessedExecutions(db: Db, runIds?: string[]): Promise<Map<string, number>> {
  let query = db.selectFrom('run_events').select(['run_id', 'data']).where('kind', '=', 'content');
  if (runIds) query = query.where('run_id', 'in', runIds);
  const counts = new Map<string, number>();
  for (const row of await query.execute()) {
    const data = JSON.parse(row.data) as { role: string; block: { type: string; text?: string } };
    if (data.role !== 'assistant' || data.block.type !== 'text') continue;
    const lines = (data.block.text ?? '').split('\n').filter((line) => executionWitness.line.test(line)).length;
    if (lines > 0) counts.set(row.run_id, (counts.get(row.run_id) ?? 0) + lines);
  }
  return counts;
}

/** Run counts by state. */
export async function countByState(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('runs')
    .select(['state'])
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
}
