/**
 * Gemini CLI (`@google/gemini-cli`): `gemini -p PROMPT --output-format stream-json --yolo`, headless, one
 * JSON event per stdout line (docs/decisions.md §Gemini CLI and opencode harnesses).
 *
 * - endpoint: GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY, the gateway's and this execution's key; the
 *   headless CLI refuses to start unless its settings name the API-key auth method;
 * - quiet: usage statistics, telemetry and auto-update off (settings);
 * - state: GEMINI_CLI_HOME is the run's harness home (settings, its chats, so `--resume <session>`
 *   continues one); the workspace is trusted (GEMINI_CLI_TRUST_WORKSPACE), tools auto-approved (`--yolo`:
 *   the run's sandbox is the boundary);
 * - base_prompt as the global context file (`GEMINI.md` in its home, which it adds to every request), MCP
 *   servers as settings `mcpServers`, `reasoning_level` as a model override of the thinking config
 *   (only with `harness.model_id`: overrides match a model by name).
 * - It is JavaScript (Node.js ≥ 20): the package's own entry point is started, with `node` from the PATH.
 */
import { actionCategory, actionInput, jsonLine, resultText, type ActionCategory, type HarnessAdapter, type HarnessEvent, type HarnessInput } from './adapter';
import type { ContentBlock, McpServerConfig } from '../../runs/contract';

/** The CLI's entry point inside its npm install: the same file on every architecture. */
const ENTRY_POINT = 'node_modules/@google/gemini-cli/bundle/gemini.js';
const SUPPORTED_ARCHS: ReadonlySet<NodeJS.Architecture> = new Set(['x64', 'arm64']);

// Gemini CLI's own tool names the shared table (./adapter.ts) does not know.
const GEMINI_CATEGORIES: Record<string, ActionCategory> = {
  grep_search: 'search',
  activate_skill: 'skill',
  read_mcp_resource: 'integration',
  list_mcp_resources: 'integration',
};
const categoryOf = (toolName: string): ActionCategory => GEMINI_CATEGORIES[toolName] ?? actionCategory(toolName);

function mcpServers(servers: Record<string, McpServerConfig>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    if ('url' in server && typeof server.url === 'string') {
      const headers = (server as { headers?: Record<string, string> }).headers;
      out[name] = { httpUrl: server.url, ...(headers ? { headers } : {}) };
    } else if ('command' in server && typeof server.command === 'string') {
      out[name] = { command: server.command, args: server.args ?? [], env: server.env ?? {} };
    }
  }
  return out;
}

/**
 * Oz's reasoning levels as Gemini's thinking config: Gemini 2.5 models take a token budget (-1: the
 * model decides), later ones a level.
 */
const THINKING_LEVELS: Record<string, string> = { minimal: 'MINIMAL', low: 'LOW', medium: 'MEDIUM', high: 'HIGH', xhigh: 'HIGH', max: 'HIGH' };
const THINKING_BUDGETS: Record<string, number> = { minimal: 512, low: 1024, medium: 8192, high: 24576, xhigh: 32768, max: -1 };

function thinkingOverride(modelId: string | undefined, reasoningLevel: string | undefined): unknown[] {
  const level = reasoningLevel?.toLowerCase();
  if (!modelId || !level || !(level in THINKING_LEVELS)) return [];
  const thinkingConfig = modelId.startsWith('gemini-2.') ? { thinkingBudget: THINKING_BUDGETS[level] } : { thinkingLevel: THINKING_LEVELS[level] };
  return [{ match: { model: modelId }, modelConfig: { generateContentConfig: { thinkingConfig } } }];
}

function settings(input: HarnessInput): string {
  const overrides = thinkingOverride(input.modelId, input.reasoningLevel);
  return JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    mcpServers: mcpServers(input.mcpServers),
    ...(overrides.length > 0 ? { modelConfigs: { customOverrides: overrides } } : {}),
  });
}

export interface GeminiState {
  /** Assistant text streamed in deltas, recorded as one text block when something else happens. */
  text: string;
  /** The actions recorded, by tool id: their result names them again. */
  actions: Map<string, { name: string; category: ActionCategory }>;
}

const assistant = (content: ContentBlock[]): HarnessEvent => ({ kind: 'message', role: 'assistant', content });

/** The text gathered so far as a message (then forgotten), if there is any. */
function flushText(state: GeminiState): HarnessEvent[] {
  const text = state.text;
  state.text = '';
  return text.trim() === '' ? [] : [assistant([{ type: 'text', text }])];
}

type Stats = { input_tokens?: unknown; output_tokens?: unknown; total_tokens?: unknown };
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

function usageOf(stats: Stats | undefined): HarnessEvent[] {
  if (!stats) return [];
  const prompt = count(stats.input_tokens);
  const completion = count(stats.output_tokens);
  return [{ kind: 'usage', usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: count(stats.total_tokens) || prompt + completion } }];
}

function toolResult(event: Record<string, unknown>, state: GeminiState): ContentBlock {
  const id = String(event.tool_id ?? '');
  const action = state.actions.get(id) ?? { name: 'tool', category: 'command' as const };
  state.actions.delete(id);
  const error = (event.error as { message?: unknown } | undefined)?.message;
  const failed = event.status !== 'success';
  // A failure's own message names what went wrong (`File not found: /workspace/x`); its output only says that it did.
  const text = failed && typeof error === 'string' ? error : typeof event.output === 'string' ? event.output : '';
  return {
    type: 'action_result',
    action_id: id,
    category: action.category,
    name: action.name,
    state: failed ? 'failed' : 'completed',
    output: { text: resultText(text) },
  };
}

export const geminiAdapter: HarnessAdapter<GeminiState> = {
  type: 'gemini',
  displayName: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  version: '0.61.0',
  bin: 'gemini',
  resumes: true,
  executable: (arch) => (SUPPORTED_ARCHS.has(arch) ? ENTRY_POINT : undefined),
  newState: () => ({ text: '', actions: new Map() }),

  invocation(input: HarnessInput) {
    const home = `${input.stateDir}/gemini`;
    const args = ['--output-format', 'stream-json', '--yolo'];
    if (input.modelId) args.push('--model', input.modelId);
    if (input.resumeSessionId) args.push('--resume', input.resumeSessionId);
    // `--prompt=…` in one argument: a prompt that starts with `-` is still the prompt.
    args.push(`--prompt=${input.prompt}`);
    const files = [{ path: `${home}/.gemini/settings.json`, content: settings(input) }];
    // Written every time (empty without a base prompt), so a follow-up never sees an earlier one's.
    files.push({ path: `${home}/.gemini/GEMINI.md`, content: input.basePrompt ?? '' });
    return {
      args,
      env: {
        GEMINI_CLI_HOME: home,
        GOOGLE_GEMINI_BASE_URL: input.gateway.url,
        GEMINI_API_KEY: input.gateway.key,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        // It would otherwise start itself again as a child process only to raise its heap limit.
        GEMINI_CLI_NO_RELAUNCH: 'true',
      },
      files,
    };
  },

  parse(line, state) {
    const event = jsonLine(line);
    if (!event) return [];
    switch (event.type) {
      case 'init':
        return typeof event.session_id === 'string' ? [{ kind: 'session', id: event.session_id }] : [];
      case 'message':
        // The user's prompt is echoed back; the run already recorded it.
        if (event.role === 'assistant' && typeof event.content === 'string') {
          // Without `delta` a message is whole: anything gathered before it ends there.
          if (event.delta === true) state.text += event.content;
          else return [...flushText(state), assistant([{ type: 'text', text: event.content }])];
        }
        return [];
      case 'tool_use': {
        const id = String(event.tool_id ?? '');
        const name = String(event.tool_name ?? 'tool');
        const category = categoryOf(name);
        state.actions.set(id, { name, category });
        return [...flushText(state), assistant([{ type: 'action', id, category, name, input: actionInput(event.parameters) }])];
      }
      case 'tool_result':
        return [...flushText(state), { kind: 'message', role: 'tool', content: [toolResult(event, state)] }];
      case 'error':
        // A warning or a failed model call it goes on from (a loop it broke, a retry): the result decides.
        return [...flushText(state), { kind: 'error', message: String(event.message ?? 'error'), fatal: false }];
      case 'result': {
        const events = [...flushText(state), ...usageOf(event.stats as Stats | undefined)];
        if (event.status !== 'success') {
          const message = (event.error as { message?: unknown } | undefined)?.message;
          events.push({ kind: 'error', message: typeof message === 'string' ? message : 'the run failed', fatal: true });
        }
        return events;
      }
      default:
        return [];
    }
  },
};
