/**
 * The contract between the harness runner (./runner.ts) and one third-party agent CLI (docs/decisions.md
 * §Third-party harnesses). An adapter is pure: it says where its CLI comes from, how one execution starts
 * it (argv, environment, config files) and what each line of its JSON event stream means; the runner
 * does the rest (sandbox, gateway, conversation, outcome). One file per CLI: ./codex.ts, ./claude.ts, …
 */
import type { ContentBlock, McpServerConfig, RunRole, TokenUsage } from '../../runs/contract';

/** The harness types a run names in `config.harness.type` (Oz's `claude`, `codex`, `gemini`; `opencode` an extension). */
export const HARNESS_TYPES = ['codex', 'claude', 'gemini', 'opencode'] as const;
export type HarnessType = (typeof HARNESS_TYPES)[number];

export const isHarnessType = (value: unknown): value is HarnessType => (HARNESS_TYPES as readonly unknown[]).includes(value);

/** What one execution of the CLI is asked to do, in the sandbox's own paths. */
export interface HarnessInput {
  /** The initial prompt, or the follow-ups this execution answers (joined by blank lines). */
  prompt: string;
  /** `config.base_prompt`, for CLIs that take extra system instructions. */
  basePrompt: string | undefined;
  /** `config.harness.model_id`; undefined: the CLI's own default model. */
  modelId: string | undefined;
  /** `config.model_id` (DEFAULT_MODEL_ID on a server running the built-in agent): for a CLI with no default model of its own. */
  runModelId?: string | undefined;
  /** `config.harness.reasoning_level`, as the run gave it (the adapter maps or drops it). */
  reasoningLevel: string | undefined;
  /** The CLI's session to continue (a follow-up), as a `session` event of an earlier execution named it. */
  resumeSessionId: string | undefined;
  /** The run's MCP servers (`url` ones are reached through the sandbox's egress proxy, under its policy). */
  mcpServers: Record<string, McpServerConfig>;
  /** The model gateway as the sandbox reaches it (`http://model-gateway.internal`) and this execution's key. */
  gateway: { url: string; key: string };
  /** The CLI's home: a directory of this run's own, kept between executions, created before the CLI starts. */
  stateDir: string;
  /** The run's workspace (the CLI's working directory). */
  workspace: string;
}

export interface HarnessInvocation {
  /** Arguments after the executable. */
  args: string[];
  /** The CLI's variables (endpoint, key, quieting flags), on top of the run's environment. */
  env: Record<string, string>;
  /** Files written (mode 0600) before the CLI starts, by path inside the sandbox (under `stateDir`). */
  files?: Array<{ path: string; content: string }>;
}

/** What a stream line means for the run. */
export type HarnessEvent =
  /** A message of the conversation: `assistant` (text, `action`) or `tool` (`action_result`). */
  | { kind: 'message'; role: Extract<RunRole, 'assistant' | 'tool'>; content: ContentBlock[] }
  /** The CLI's session id: kept with the run (a conversation event) for the next execution to resume. */
  | { kind: 'session'; id: string }
  /** What the CLI says it spent: shown as an event only, since the gateway has already metered every call. */
  | { kind: 'usage'; usage: TokenUsage }
  /**
   * The CLI reports an error in its own words: `fatal` when it says the run failed (the turn failed, the
   * model refused); else a notice (a retry, a warning), recorded and named in the failure if the CLI
   * then exits non-zero.
   */
  | { kind: 'error'; message: string; fatal: boolean };

export interface HarnessAdapter<State = unknown> {
  readonly type: HarnessType;
  /** Shown in listings and errors (`Codex`, `Claude Code`). */
  readonly displayName: string;
  /** The npm package and the version this server pins (`pnpm harnesses:install`). */
  readonly npmPackage: string;
  readonly version: string;
  /** The command's name on an image's PATH. */
  readonly bin: string;
  /**
   * The native executable inside an npm install (relative to its prefix) for this machine's architecture:
   * started directly, so the image needs no Node.js. Undefined where the package has none for `arch`.
   */
  executable(arch: NodeJS.Architecture): string | undefined;
  /** Whether `invocation` continues a session given `resumeSessionId` (else a follow-up starts afresh with the history as prompt). */
  readonly resumes: boolean;
  /** Fresh per-execution parse state (open tool calls, text so far). */
  newState(): State;
  invocation(input: HarnessInput): HarnessInvocation;
  /** One stdout line (without its newline); lines that are not the CLI's JSON answer []. */
  parse(line: string, state: State): HarnessEvent[];
}

/** The JSON object a stream line holds, or undefined (banners, blank lines, partial writes). */
export function jsonLine(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** An action's `input` must be an object (contract: ActionBlock): anything else is wrapped. */
export function actionInput(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    const parsed = jsonLine(value);
    if (parsed) return parsed;
  }
  return value === undefined ? {} : { value };
}

export type ActionCategory = Extract<ContentBlock, { type: 'action' }>['category'];

// The tool names the four CLIs give their built-in tools, by what they do (Oz's action categories).
const FILE_TOOLS = new Set([
  'read',
  'write',
  'edit',
  'multiedit',
  'notebookedit',
  'apply_patch',
  'file_change',
  'read_file',
  'write_file',
  'replace',
  'read_many_files',
  'patch',
  'view_image',
]);
const SEARCH_TOOLS = new Set([
  'glob',
  'grep',
  'ls',
  'list',
  'list_directory',
  'search_file_content',
  'codesearch',
  'web_search',
  'websearch',
  'webfetch',
  'web_fetch',
  'google_web_search',
]);

/**
 * The category of a CLI's tool call: its shell tools (`Bash`, `exec_command`, …) `command`, file tools `files`, search tools `search`,
 * an MCP server's tool (`mcp__server__tool`, `server.tool` as the CLI names it) `integration`; any other
 * built-in tool (a todo list, a sub-agent) is recorded as `command`, the closest Oz category for work the
 * agent did on its own.
 */
export function actionCategory(toolName: string, mcp = false): ActionCategory {
  const name = toolName.toLowerCase();
  if (mcp || name.startsWith('mcp__') || name.startsWith('mcp_')) return 'integration';
  if (FILE_TOOLS.has(name)) return 'files';
  if (SEARCH_TOOLS.has(name)) return 'search';
  return 'command';
}

/** Text of a tool's output for an `action_result`, at most RESULT_TEXT_MAX characters (start and end kept). */
export const RESULT_TEXT_MAX = 30_000;
export function resultText(text: string): string {
  if (text.length <= RESULT_TEXT_MAX) return text;
  const half = RESULT_TEXT_MAX / 2;
  return `${text.slice(0, half)}\n[… ${text.length - RESULT_TEXT_MAX} characters cut …]\n${text.slice(-half)}`;
}
