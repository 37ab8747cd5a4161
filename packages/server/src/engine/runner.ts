/**
 * The contract between the run engine and whatever executes a run.
 *
 * The engine claims a run, prepares its working directory (attachments written as files, environment
 * set up), builds a RunContext and calls `runner.run(ctx)`. The runner records what happens through
 * `ctx.conversation` and returns an outcome; it must stop promptly when `ctx.signal` aborts (cancel or
 * shutdown) and close everything it opened.
 */
import type { Logger } from 'pino';
import type { components } from '@agent-runs/contract';
import type { ArtifactPublisher } from '../artifacts/service';
import type { ExecutionGateway } from './gateway/gateway';
import type { RunSandbox } from './sandbox';

// What runners record and report is what the API answers: these are the contract's own shapes.
type Schemas = components['schemas'];

export type RunRole = Schemas['MessageRole'];
/** The contract's content blocks (an action's input and a result's output are objects, as in the Oz API). */
export type ContentBlock = Schemas['ContentBlock'];
export type ConversationMessage = Pick<Schemas['ConversationMessage'], 'role' | 'timestamp'> & { content: ContentBlock[] };

/** One turn: the initial prompt is turn 1; every follow-up that starts work opens the next. */
export interface ConversationTurn {
  position: number;
  messages: ConversationMessage[];
}

export type RunStatusMessage = Schemas['RunStatusMessage'];
export type TokenUsage = Schemas['RunUsage'];
export type McpStdioServerConfig = Schemas['MCPStdioServerConfig'];
/** The MCP servers a run can start: the contract's Warp form (`warp_id`) is refused before a run exists (runs/config.ts). */
export type McpServerConfig = McpStdioServerConfig | Schemas['MCPHttpServerConfig'];

/** AmbientAgentConfig with the engine's defaults filled in: the fields the engine knows (runs/config.ts KNOWN_FIELDS). */
export type ResolvedAgentConfig = Pick<
  Schemas['AmbientAgentConfig'],
  | 'name'
  | 'model_id'
  | 'base_prompt'
  | 'environment_id'
  | 'skill_spec'
  | 'max_turns'
  | 'model_call_timeout_seconds'
  | 'run_timeout_seconds'
  | 'max_tokens'
  | 'max_cost'
  | 'harness_auth_secrets'
  | 'harness'
> & { mcp_servers?: Record<string, McpServerConfig> };

export interface RunAttachment {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** What this execution is asked to do. */
export type RunInput =
  | { kind: 'initial'; prompt: string }
  /** The run had finished and was re-queued by follow-ups; continue the same conversation. */
  | { kind: 'resume'; messages: string[] };

export interface FollowupInbox {
  /** Follow-ups accepted since the last call, oldest first; each is returned once. */
  take(): Promise<string[]>;
}

export interface ConversationWriter {
  /** Appends one message to the current turn (persisted and streamed as `content` events). */
  append(role: RunRole, content: ContentBlock[]): Promise<void>;
  /** Opens the next turn, e.g. when the runner starts working on follow-ups it took from the inbox. */
  startTurn(description?: string): Promise<void>;
  /**
   * Set once a message would have taken the run past RUN_OUTPUT_LIMIT_MB (runs/output-limit.ts): the run
   * FAILS with it whatever the runner made of the refused append.
   */
  readonly exceeded?: { statusMessage: RunStatusMessage } | undefined;
}

export interface UsageRecorder {
  /**
   * Adds tokens just spent to the run's usage, at once: a client sees the usage so far while the run
   * works, and tokens spent before a cancel (or a crash) stay accounted for. `modelId` is the model that
   * answered (default the run's `model_id`): costs and the team's per-model usage are counted by it. Then
   * throws a BudgetExceededError (budgets/recorder.ts) when the call took the run past its own budget or
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
