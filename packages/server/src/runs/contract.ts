/**
 * The contract's shapes a run records and reports — its messages, status, usage and resolved configuration —
 * and the ports a runner writes them through. They belong to the runs module (docs/architecture.md §Order
 * inside the domain): the engine, artifacts and budgets build on them, the runs module needs nothing above it.
 */
import type { components } from '@agent-runs/contract';

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
/** The MCP servers a run can start: the contract's Warp form (`warp_id`) is refused before a run exists (config.ts). */
export type McpServerConfig = McpStdioServerConfig | Schemas['MCPHttpServerConfig'];

/** AmbientAgentConfig with the engine's defaults filled in: the fields the engine knows (config.ts KNOWN_FIELDS). */
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

/**
 * An error a run ends with, not retryable: the worker finishes the run with its `statusMessage`. Each cause is
 * a subclass (with its `name`), so callers tell them apart by class.
 */
export class RunFailureError extends Error {
  readonly statusMessage: RunStatusMessage;
  constructor(message: string, errorCode: string) {
    super(message);
    this.statusMessage = { message, error_code: errorCode, retryable: false };
  }
}
