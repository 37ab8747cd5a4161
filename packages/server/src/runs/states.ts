/**
 * Run states and every rule that groups them: the only place a set of states is written. The values are
 * the contract's RunState; a state the contract adds fails the type check below until it is classified.
 */
import type { components } from '@agent-runs/contract';

export type RunState = components['schemas']['RunState'];

interface StateTraits {
  /** Finished: completed_at is set, open turns are closed, SSE streams end, work dirs become prunable. */
  terminal: boolean;
  /** A worker holds a lease (lease_owner, lease_expires_at) and heartbeats it; the sweeper recovers it on expiry. */
  leased: boolean;
  /** POST …/cancel moves it to CANCELLED. */
  cancellable: boolean;
  /**
   * What POST …/followups does: hand it to the current execution, re-queue the run to resume, or refuse.
   * `resume` is also what marks the end of an execution in the run's log (runs/executions.ts planExecution).
   */
  followup: 'deliver' | 'resume' | 'refuse';
  /** Counts as running for whatever limits concurrency (schedule overlap, per-team limits): holds or awaits a worker. */
  busy: boolean;
  /** Outbound notifications have an event type of its own, `run.<state>` (notifications/events.ts). */
  notified: boolean;
}

const STATES = {
  QUEUED: { terminal: false, leased: false, cancellable: true, followup: 'deliver', busy: true, notified: false },
  // Not cancellable while being prepared: cancel answers 409 retryable, as the Oz API does (contract: cancelRun).
  PENDING: { terminal: false, leased: false, cancellable: false, followup: 'deliver', busy: true, notified: false },
  CLAIMED: { terminal: false, leased: true, cancellable: true, followup: 'deliver', busy: true, notified: false },
  INPROGRESS: { terminal: false, leased: true, cancellable: true, followup: 'deliver', busy: true, notified: false },
  SUCCEEDED: { terminal: true, leased: false, cancellable: false, followup: 'resume', busy: false, notified: true },
  FAILED: { terminal: true, leased: false, cancellable: false, followup: 'resume', busy: false, notified: true },
  // The agent asked a question (docs/decisions.md §Blocked runs): its execution ended and gave back its worker;
  // the answer is a follow-up that re-queues it.
  BLOCKED: { terminal: false, leased: false, cancellable: true, followup: 'resume', busy: false, notified: true },
  ERROR: { terminal: true, leased: false, cancellable: false, followup: 'resume', busy: false, notified: true },
  CANCELLED: { terminal: true, leased: false, cancellable: false, followup: 'refuse', busy: false, notified: true },
} as const satisfies Record<RunState, StateTraits>;

/** The states with an outbound notification event type of their own (`run.<state>`), as a type. */
export type NotifiedState = { [S in RunState]: (typeof STATES)[S]['notified'] extends true ? S : never }[RunState];

const traitsOf = (state: string): StateTraits | undefined => (Object.hasOwn(STATES, state) ? STATES[state as RunState] : undefined);
const statesWhere = (test: (traits: StateTraits) => boolean): readonly RunState[] => (Object.keys(STATES) as RunState[]).filter((state) => test(STATES[state]));

export const TERMINAL_STATES = statesWhere((t) => t.terminal);
export const LEASED_STATES = statesWhere((t) => t.leased);
export const CANCELLABLE_STATES = statesWhere((t) => t.cancellable);
/** States a follow-up re-queues (the run resumes the same conversation); an execution ends in one of them. */
export const FOLLOWUP_RESUME_STATES = statesWhere((t) => t.followup === 'resume');

/** How an execution ends (engine/worker.ts → finishExecution): finished, or waiting for an answer. */
export type ExecutionOutcomeState = Extract<RunState, 'SUCCEEDED' | 'FAILED' | 'ERROR' | 'BLOCKED'>;

export const isTerminalState = (state: string): boolean => traitsOf(state)?.terminal === true;
export const isLeasedState = (state: string): boolean => traitsOf(state)?.leased === true;
/** Counts as running for concurrency limits: a BLOCKED run waits for a person, not for a worker. */
export const isBusyState = (state: string): boolean => traitsOf(state)?.busy === true;
export const isNotifiedState = (state: string): state is NotifiedState => traitsOf(state)?.notified === true;
/** A follow-up re-queues the run. */
export const isFollowupResumeState = (state: string): boolean => traitsOf(state)?.followup === 'resume';
/** A follow-up is queued for the current execution. */
export const isFollowupLiveState = (state: string): boolean => traitsOf(state)?.followup === 'deliver';
