/**
 * Run states and every rule that groups them: the only place a set of states is written. The values are
 * the contract's RunState; a state the contract adds fails the type check below until it is classified.
 */
import type { components } from '../generated/api';

export type RunState = components['schemas']['RunState'];

interface StateTraits {
  /** Finished: completed_at is set, open turns are closed, SSE streams end, work dirs become prunable. */
  terminal: boolean;
  /** A worker holds a lease (lease_owner, lease_expires_at) and heartbeats it; the sweeper recovers it on expiry. */
  leased: boolean;
  /** POST …/cancel moves it to CANCELLED. */
  cancellable: boolean;
  /** What POST …/followups does: hand it to the current execution, re-queue the run to resume, or refuse. */
  followup: 'deliver' | 'resume' | 'refuse';
}

const STATES = {
  QUEUED: { terminal: false, leased: false, cancellable: true, followup: 'deliver' },
  // Not cancellable while being prepared: cancel answers 409 retryable, as the Oz API does (contract: cancelRun).
  PENDING: { terminal: false, leased: false, cancellable: false, followup: 'deliver' },
  CLAIMED: { terminal: false, leased: true, cancellable: true, followup: 'deliver' },
  INPROGRESS: { terminal: false, leased: true, cancellable: true, followup: 'deliver' },
  SUCCEEDED: { terminal: true, leased: false, cancellable: false, followup: 'resume' },
  FAILED: { terminal: true, leased: false, cancellable: false, followup: 'resume' },
  BLOCKED: { terminal: false, leased: false, cancellable: true, followup: 'deliver' },
  ERROR: { terminal: true, leased: false, cancellable: false, followup: 'resume' },
  CANCELLED: { terminal: true, leased: false, cancellable: false, followup: 'refuse' },
} as const satisfies Record<RunState, StateTraits>;

/** The terminal states as a type (outbound notifications name one event type per terminal state). */
export type TerminalState = { [S in RunState]: (typeof STATES)[S]['terminal'] extends true ? S : never }[RunState];

const traitsOf = (state: string): StateTraits | undefined => (Object.hasOwn(STATES, state) ? STATES[state as RunState] : undefined);
const statesWhere = (test: (traits: StateTraits) => boolean): readonly RunState[] =>
  (Object.keys(STATES) as RunState[]).filter((state) => test(STATES[state]));

export const TERMINAL_STATES = statesWhere((t) => t.terminal);
export const LEASED_STATES = statesWhere((t) => t.leased);
export const CANCELLABLE_STATES = statesWhere((t) => t.cancellable);
/** Finished states a follow-up re-queues (the run resumes the same conversation); an execution ends in one of them. */
export const FOLLOWUP_RESUME_STATES = statesWhere((t) => t.followup === 'resume');

/** How an execution ends (engine/worker.ts → finishExecution). */
export type ExecutionOutcomeState = Extract<RunState, 'SUCCEEDED' | 'FAILED' | 'ERROR'>;

export const isTerminalState = (state: string): boolean => traitsOf(state)?.terminal === true;
export const isLeasedState = (state: string): boolean => traitsOf(state)?.leased === true;
/** A follow-up re-queues the run. */
export const isFollowupResumeState = (state: string): boolean => traitsOf(state)?.followup === 'resume';
/** A follow-up is queued for the current execution. */
export const isFollowupLiveState = (state: string): boolean => traitsOf(state)?.followup === 'deliver';
