/**
 * opencode (`opencode-ai`, an extension to Oz's harnesses): `opencode run --format json`, non-interactive,
 * one JSON event per stdout line (docs/decisions.md §Gemini CLI and opencode harnesses).
 *
 * - endpoint: an OpenAI-compatible provider of its own (`agent-runs`) at the gateway's `/v1`, this
 *   execution's key, all in OPENCODE_CONFIG_CONTENT; `--model agent-runs/<model>`, `harness.model_id` or
 *   else the run's `model_id`;
 * - quiet: model-list fetches, auto-update, LSP downloads, sharing, default and external plugins off
 *   (`--pure`), a given title (else it spends a model call naming the session);
 * - state: its XDG directories in the run's harness home (its sessions, so `--session <id>` continues
 *   one); permissions auto-approved (`--auto`: the run's sandbox is the boundary);
 * - base_prompt as an `instructions` file, MCP servers as `mcp` (named `mcp_<name>`, so their tools'
 *   names say where they come from), `reasoning_level` as the model's `reasoningEffort`.
 */
import { actionCategory, actionInput, jsonLine, resultText, type HarnessAdapter, type HarnessEvent, type HarnessInput } from './adapter';
import type { ContentBlock, McpServerConfig } from '../../runs/contract';

/** The provider id the config declares for the gateway (`-m agent-runs/<model>`). */
const PROVIDER_ID = 'agent-runs';
const opencodeVersion = '1.18.33';
const TITLE_CHARS = 50;

// Both x64 packages come with the install: `-baseline` is for CPUs without AVX2, which a server rarely has.
const ARCH_PACKAGES: Partial<Record<NodeJS.Architecture, string>> = { x64: 'opencode-linux-x64', arm64: 'opencode-linux-arm64' };

/** Oz's reasoning levels as the OpenAI-compatible `reasoning_effort` values. */
const EFFORTS: Record<string, string> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

function mcp(servers: Record<string, McpServerConfig>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    if ('url' in server && typeof server.url === 'string') {
      const headers = (server as { headers?: Record<string, string> }).headers;
      out[`mcp_${name}`] = { type: 'remote', url: server.url, enabled: true, ...(headers ? { headers } : {}) };
    } else if ('command' in server && typeof server.command === 'string') {
      out[`mcp_${name}`] = { type: 'local', command: [server.command, ...(server.args ?? [])], environment: server.env ?? {}, enabled: true };
    }
  }
  return out;
}

function config(input: HarnessInput, model: string | undefined, basePromptFile: string | undefined): string {
  const effort = input.reasoningLevel && EFFORTS[input.reasoningLevel.toLowerCase()];
  return JSON.stringify({
    provider: {
      [PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'agent-runs model gateway',
        options: { baseURL: `${input.gateway.url}/v1`, apiKey: input.gateway.key },
        models: model ? { [model]: { name: model, ...(effort ? { options: { reasoningEffort: effort } } : {}) } } : {},
      },
    },
    enabled_providers: [PROVIDER_ID],
    ...(model ? { model: `${PROVIDER_ID}/${model}` } : {}),
    permission: { bash: 'allow', edit: 'allow' },
    autoupdate: false,
    share: 'disabled',
    mcp: mcp(input.mcpServers),
    ...(basePromptFile ? { instructions: [basePromptFile] } : {}),
  });
}

/**
 * opencode `npm install`s its plugin SDK into each config directory on every start, in the background,
 * even with `--pure` (the egress policy refuses the registry: a notice in every run). It skips the install
 * where the directory's node_modules exists and its lock file already names every dependency: so it is
 * told that, and nothing it needs is missing (no plugin is loaded).
 */
function pluginInstallSkipped(configDir: string): Array<{ path: string; content: string }> {
  const dependencies = { '@opencode-ai/plugin': opencodeVersion };
  return [
    { path: `${configDir}/package.json`, content: JSON.stringify({ dependencies }) },
    { path: `${configDir}/package-lock.json`, content: JSON.stringify({ packages: { '': { dependencies } } }) },
    { path: `${configDir}/node_modules/.agent-runs`, content: '' },
  ];
}

/** What a session is titled by (its first line, cut short): given, so opencode does not ask the model for one. */
const titleOf = (prompt: string): string => (prompt.trim().split('\n')[0] ?? '').slice(0, TITLE_CHARS) || 'agent run';

export interface OpencodeState {
  /** Whether this execution's session id was reported (every event carries it). */
  sessionReported: boolean;
}

type ToolState = { status?: string; input?: unknown; output?: unknown; error?: unknown; metadata?: { exit?: unknown } };
type Part = { type?: string; text?: unknown; tool?: unknown; callID?: unknown; state?: ToolState; tokens?: Record<string, unknown> };

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/** A tool part is reported once, finished: its action and its result together. */
function toolEvents(part: Part): HarnessEvent[] {
  const id = String(part.callID ?? '');
  const name = String(part.tool ?? 'tool');
  const category = actionCategory(name);
  const state = part.state ?? {};
  const action: ContentBlock = { type: 'action', id, category, name, input: actionInput(state.input) };
  const exitCode = typeof state.metadata?.exit === 'number' ? state.metadata.exit : undefined;
  const failed = state.status === 'error' || (exitCode !== undefined && exitCode !== 0);
  const text = state.status === 'error' ? String(state.error ?? 'the tool failed') : typeof state.output === 'string' ? state.output : '';
  const result: ContentBlock = {
    type: 'action_result',
    action_id: id,
    category,
    name,
    state: failed ? 'failed' : 'completed',
    output: { text: resultText(text), ...(exitCode !== undefined ? { exit_code: exitCode } : {}) },
  };
  return [
    { kind: 'message', role: 'assistant', content: [action] },
    { kind: 'message', role: 'tool', content: [result] },
  ];
}

/** A step's tokens: cache reads and writes are prompt tokens, reasoning is output. */
function stepUsage(tokens: Record<string, unknown> | undefined): HarnessEvent[] {
  if (!tokens) return [];
  const cache = (tokens.cache ?? {}) as Record<string, unknown>;
  const prompt = count(tokens.input) + count(cache.read) + count(cache.write);
  const completion = count(tokens.output) + count(tokens.reasoning);
  return [{ kind: 'usage', usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }];
}

function errorMessage(error: unknown): string {
  const { name, data } = (error ?? {}) as { name?: unknown; data?: { message?: unknown } };
  if (typeof data?.message === 'string' && data.message !== '') return data.message;
  return typeof name === 'string' ? name : 'opencode failed';
}

export const opencodeAdapter: HarnessAdapter<OpencodeState> = {
  type: 'opencode',
  displayName: 'opencode',
  npmPackage: 'opencode-ai',
  version: opencodeVersion,
  bin: 'opencode',
  resumes: true,
  executable(arch) {
    const pkg = ARCH_PACKAGES[arch];
    return pkg && `node_modules/${pkg}/bin/opencode`;
  },
  newState: () => ({ sessionReported: false }),

  invocation(input: HarnessInput) {
    const home = `${input.stateDir}/opencode`;
    // opencode has no model of its own at an OpenAI-compatible endpoint: the run's model (DEFAULT_MODEL_ID
    // at the endpoint the built-in agent uses) is the natural one; without either it says it has none.
    const model = input.modelId ?? input.runModelId;
    const basePromptFile = input.basePrompt ? `${home}/base-prompt.md` : undefined;
    const args = ['run', '--format', 'json', '--pure', '--auto', `--title=${titleOf(input.prompt)}`];
    if (model) args.push('--model', `${PROVIDER_ID}/${model}`);
    if (input.resumeSessionId) args.push('--session', input.resumeSessionId);
    // After `--`, a prompt that starts with `-` is still the prompt.
    args.push('--', input.prompt);
    return {
      args,
      env: {
        OPENCODE_CONFIG_CONTENT: config(input, model, basePromptFile),
        XDG_CONFIG_HOME: `${home}/config`,
        XDG_DATA_HOME: `${home}/data`,
        XDG_CACHE_HOME: `${home}/cache`,
        XDG_STATE_HOME: `${home}/state`,
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
      },
      files: [...pluginInstallSkipped(`${home}/config/opencode`), ...(basePromptFile ? [{ path: basePromptFile, content: input.basePrompt ?? '' }] : [])],
    };
  },

  parse(line, state) {
    const event = jsonLine(line);
    if (!event) return [];
    const events: HarnessEvent[] = [];
    if (!state.sessionReported && typeof event.sessionID === 'string') {
      state.sessionReported = true;
      events.push({ kind: 'session', id: event.sessionID });
    }
    const part = (event.part ?? {}) as Part;
    switch (event.type) {
      case 'text':
        if (typeof part.text === 'string' && part.text.trim() !== '')
          events.push({ kind: 'message', role: 'assistant', content: [{ type: 'text', text: part.text }] });
        break;
      case 'tool_use':
        events.push(...toolEvents(part));
        break;
      case 'step_finish':
        events.push(...stepUsage(part.tokens));
        break;
      case 'error':
        events.push({ kind: 'error', message: errorMessage(event.error), fatal: true });
        break;
    }
    return events;
  },
};
