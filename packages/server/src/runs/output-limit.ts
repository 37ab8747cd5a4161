/**
 * The bound on what one run stores (docs/decisions.md §Streamed conversations and the per-run output bound):
 * RUN_OUTPUT_LIMIT_MB over all its executions, counted in `runs.output_bytes` in the transaction that
 * appends a message, so it holds across executions, runners and processes. A message that would take the
 * run past it is not stored, and the run ends FAILED `output_limit`; what was stored stays readable.
 */
import { RunFailureError, type ContentBlock } from './contract';
import type { Db } from './repository';
import { teamScope } from '../db/scoped';

/** What a message adds to its run's stored output: its blocks as JSON, in bytes. */
export const storedBytesOf = (blocks: ContentBlock[]): number => blocks.reduce((sum, block) => sum + Buffer.byteLength(JSON.stringify(block)), 0);

const inMegabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Thrown by the ConversationWriter past the bound; the worker ends the run FAILED with its status message. */
export class OutputLimitError extends RunFailureError {
  constructor(stored: number, limit: number) {
    super(
      `the run stored ${inMegabytes(stored)} (${stored} bytes) of output over its executions and stopped at the limit of ${inMegabytes(limit)} (RUN_OUTPUT_LIMIT_MB); what it stored up to the limit is kept`,
      'output_limit',
    );
  }
}

/**
 * Adds `bytes` to the run's stored output while `leaseOwner` executes it, unless that takes it past `limit`.
 * In the caller's transaction, before the message is written.
 */
export async function addStoredOutput(
  tx: Db,
  run: { id: string; team_id: string },
  leaseOwner: string,
  bytes: number,
  limit: number,
): Promise<{ status: 'added' } | { status: 'not_owned' } | { status: 'over_limit'; stored: number }> {
  const added = await teamScope(tx, run.team_id)
    .updateTable('runs')
    .set((eb) => ({ output_bytes: eb('output_bytes', '+', bytes) }))
    .where('id', '=', run.id)
    .where('lease_owner', '=', leaseOwner)
    .where('state', '=', 'INPROGRESS')
    .where((eb) => eb(eb('output_bytes', '+', bytes), '<=', limit))
    .returning('output_bytes')
    .executeTakeFirst();
  if (added) return { status: 'added' };
  const current = await teamScope(tx, run.team_id)
    .selectFrom('runs')
    .select(['output_bytes', 'lease_owner', 'state'])
    .where('id', '=', run.id)
    .executeTakeFirst();
  if (!current || current.lease_owner !== leaseOwner || current.state !== 'INPROGRESS') return { status: 'not_owned' };
  return { status: 'over_limit', stored: Number(current.output_bytes) };
}
