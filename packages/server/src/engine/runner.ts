/**
 * The contract between the run engine and whatever executes a run.
 *
 * The engine claims a run, prepares its working directory (attachments written as files, environment
 * set up), builds a RunContext and calls `runner.run(ctx)`. The runner records what happens through
 * `ctx.conversation` and returns an outcome; it must stop promptly when `ctx.signal` aborts (cancel or
 * shutdown) and close everything it opened.
 */
import type { Logger } from 'pino';
import type { ArtifactPublisher } from '../artifacts/service';
import type { ExecutionGateway } from './gateway/gateway';
import type { RunSandbox } from './sandbox';
import type { UsageRecorder } from '../budgets/usage-recorder';
import type { ConversationTurn, ConversationWriter, FollowupInbox, ResolvedAgentConfig, RunInput, RunStatusMessage } from '../runs/contract';

export interface RunAttachment {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export interface RunContext {
  runId: string;
  teamId: string;
  title: string;
  source: string;
  factoryId: string | null;
  deliveryId: string | null;
  config: ResolvedAgentConfig;
  input: RunInput;
  /** Everything recorded before this execution started (earlier turns of a resumed run). */
  history: ConversationTurn[];
  attachments: RunAttachment[];
  /** Per-run working directory; attachments are already written into it; environment set up. */
  workDir: string;
  /** Extra environment variables from the run's cloud environment. */
  env: Record<string, string>;
  /** Where the runner starts processes and makes requests on the run's behalf: never on the host directly. */
  sandbox: RunSandbox;
  inbox: FollowupInbox;
  conversation: ConversationWriter;
  usage: UsageRecorder;
  /** This execution's model gateway access (engine/gateway): absent where no gateway runs (unit tests). */
  modelGateway?: ExecutionGateway;
  /** Publishes what the run produced (docs/decisions.md §Artifacts); the runner records the outcome in the conversation. */
  artifacts: ArtifactPublisher;
  /** Aborted when the run is cancelled or the server shuts down. */
  signal: AbortSignal;
  log: Logger;
}

export type RunOutcome =
  | { state: 'SUCCEEDED' }
  | { state: 'FAILED' | 'ERROR'; statusMessage: RunStatusMessage }
  /**
   * The agent asked the user a question (runs/blocked.ts blockedOn: the question is the message). The
   * execution ends like any other — its processes stop, its worker is free — and the conversation and
   * workspace stay; the answer comes as a follow-up to a new execution (`input.kind === 'resume'`).
   */
  | { state: 'BLOCKED'; statusMessage: RunStatusMessage };

export interface Runner {
  readonly name: 'echo' | 'command' | 'model' | 'harness';
  run(ctx: RunContext): Promise<RunOutcome>;
}
