/**
 * The contract between the run engine and whatever executes a run.
 *
 * The engine claims a run, prepares its working directory (attachments written as files, environment
 * set up), builds a RunContext and calls `runner.run(ctx)`. The runner records what happens through
 * `ctx.conversation` and returns an outcome; it must stop promptly when `ctx.signal` aborts (cancel or
 * shutdown) and close everything it opened.
 */
import type { Logger } from 'pino';
import type { RunSandbox } from './sandbox';

export type RunRole = 'user' | 'assistant' | 'tool' | 'system';

/** Content blocks exactly as the contract's conversation blocks. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'action'; id: string; category: string; name: string; input: unknown }
  | {
      type: 'action_result';
      action_id: string;
      category: string;
      name: string;
      state: 'running' | 'completed' | 'failed' | 'denied';
      output: unknown;
    }
  | { type: 'event'; name: string; data: unknown };

export interface ConversationMessage {
  role: RunRole;
  timestamp: string;
  content: ContentBlock[];
}

/** One turn: the initial prompt is turn 1; every follow-up that starts work opens the next. */
export interface ConversationTurn {
  position: number;
  messages: ConversationMessage[];
}

export interface RunStatusMessage {
  message: string;
  error_code?: string;
  retryable?: boolean;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface McpStdioServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}
export interface McpHttpServerConfig {
  url: string;
  headers?: Record<string, string>;
}
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** AmbientAgentConfig with the engine's defaults filled in. */
export interface ResolvedAgentConfig {
  name?: string;
  model_id?: string;
  base_prompt?: string;
  environment_id?: string;
  skill_spec?: string;
  mcp_servers?: Record<string, McpServerConfig>;
  max_turns?: number;
  model_call_timeout_seconds?: number;
  run_timeout_seconds?: number;
}

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
}

export interface UsageRecorder {
  /**
   * Adds tokens just spent to the run's usage, at once: a client sees the usage so far while the run
   * works, and tokens spent before a cancel (or a crash) stay accounted for.
   */
  add(usage: TokenUsage): Promise<void>;
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
  /** Aborted when the run is cancelled or the server shuts down. */
  signal: AbortSignal;
  log: Logger;
}

export type RunOutcome =
  | { state: 'SUCCEEDED' }
  | { state: 'FAILED' | 'ERROR'; statusMessage: RunStatusMessage };

export interface Runner {
  readonly name: 'echo' | 'command' | 'model';
  run(ctx: RunContext): Promise<RunOutcome>;
}
