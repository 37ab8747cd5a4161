/**
 * Runs that stopped to ask (docs/decisions.md §Blocked runs). An execution whose agent asked the user a
 * question ends BLOCKED with the question as its status message (engine/worker.ts → finishExecution); a
 * follow-up is the answer and re-queues it (./transitions.ts acceptFollowup). One left unanswered for
 * RUN_BLOCKED_TIMEOUT_SECONDS ends FAILED `blocked_timeout` here, from the lease sweeper (engine/sweeper.ts).
 *
 * The wait is measured from `updated_at`: while a run is BLOCKED only a state change writes it, and every
 * state change leaves BLOCKED or enters it anew.
 */
import { toTimestamp } from '../clock';
import type { RunStatusMessage } from './contract';
import { runStatusMessage, type RunsDeps } from './repository';
import { transition } from './transitions';

/** Longest question a run may ask (characters): it is the status message every list and notification carries. */
export const MAX_QUESTION_CHARS = 4000;

/** The status message of a run that asks `question`: no error_code, nothing failed. */
export const blockedOn = (question: string): RunStatusMessage => ({ message: question });

/** Blocked runs timed out per sweep; the rest wait for the next one. */
const BLOCKED_SWEEP_BATCH = 500;

/**
 * One pass: every run BLOCKED since before `timeoutSeconds` ago → FAILED `blocked_timeout` (retryable: a
 * follow-up still answers it and resumes the conversation). The scan covers every team (SERVICE-WIDE); each
 * change is then a team-scoped transition guarded by the updated_at it saw, so an answer or a cancel that
 * lands in between wins. Answers the ids it failed.
 */
export async function failUnansweredRunsServiceWide(deps: RunsDeps, timeoutSeconds: number): Promise<string[]> {
  const cutoff = toTimestamp(new Date(deps.clock.now().getTime() - timeoutSeconds * 1000));
  const rows = await deps.db
    .selectFrom('runs')
    .select(['id', 'team_id', 'updated_at', 'status_message'])
    .where('state', '=', 'BLOCKED')
    .where('updated_at', '<=', cutoff)
    .orderBy('updated_at')
    .limit(BLOCKED_SWEEP_BATCH)
    .execute();
  const failed: string[] = [];
  for (const row of rows) {
    const question = runStatusMessage(row)?.message;
    const result = await transition(deps, row.team_id, row.id, {
      from: ['BLOCKED'],
      to: 'FAILED',
      unchangedSince: row.updated_at,
      statusMessage: {
        message: `No answer came within ${timeoutSeconds} s (RUN_BLOCKED_TIMEOUT_SECONDS)${question ? ` to the question: ${question}` : ''}`,
        error_code: 'blocked_timeout',
        retryable: true,
      },
    });
    if (result.ok) failed.push(row.id);
  }
  return failed;
}
