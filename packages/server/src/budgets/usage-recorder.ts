/**
 * What a run's model calls are accounted through: the model runner and the model gateway call it, the
 * budgets module implements it (recorder.ts). Its own file so the engine names it without the recorder's
 * dependencies.
 */
import type { RunStatusMessage, TokenUsage } from '../runs/contract';

export interface UsageRecorder {
  /**
   * Adds tokens just spent to the run's usage, at once: a client sees the usage so far while the run
   * works, and tokens spent before a cancel (or a crash) stay accounted for. `modelId` is the model that
   * answered (default the run's `model_id`): costs and the team's per-model usage are counted by it. Then
   * throws a BudgetExceededError (recorder.ts) when the call took the run past its own budget or
   * its team past the monthly one.
   */
  add(usage: TokenUsage, modelId?: string): Promise<void>;
  /**
   * Throws a BudgetExceededError (with a `statusMessage`) when the run's budget or its team's is spent: the
   * model runner calls it before each model call, the model gateway before it forwards a request (and
   * answers the caller with its protocol's quota error).
   */
  assertWithinBudget(): Promise<void>;
  /**
   * The budget a recorded call went past, if any (with its status message): the run FAILS with it whatever
   * the runner made of that call's answer — the gateway records calls while a harness goes on.
   */
  readonly exceeded?: { statusMessage: RunStatusMessage } | undefined;
  /** Resolves once every call recorded so far is written (the gateway records after its answer streamed). */
  settled?(): Promise<void>;
}
