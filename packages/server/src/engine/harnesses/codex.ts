/**
 * Codex (`@openai/codex`): `codex exec --json`, non-interactive, its JSONL thread events on stdout
 * (docs/decisions.md §Third-party harnesses).
 *
 * - endpoint: a model provider of its own (`-c model_providers.gateway.*`) at the gateway's OpenAI base
 *   with the Responses wire API, its key read from AGENT_MODEL_GATEWAY_KEY (`env_key`);
 * - quiet: analytics, update checks, plugins, apps and tool suggestions off;
 * - state: CODEX_HOME is the run's harness home (its sessions, so `exec resume <thread>` continues one);
 * - base_prompt as `developer_instructions`, MCP servers as `mcp_servers.<name>`, `reasoning_level` as
 *   `model_reasoning_effort`; Codex's own sandbox is off (the run's sandbox is the boundary).
 */
import { actionCategory, actionInput, jsonLine, resultText, type HarnessAdapter, type HarnessEvent, type HarnessInput } from './adapter';
import type { ContentBlock, McpServerConfig } from '../../runs/contract';

/** Codex's `-c` values are TOML; a JSON string or array of strings is valid TOML too. */
const toml = (value: unknown): string => JSON.stringify(value);
/** A TOML key: bare when it can be, else quoted. */
const tomlKey = (name: string): string => (/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name));
const tomlTable = (entries: Record<string, string>): string =>
  `{${Object.entries(entries)
    .map(([k, v]) => `${tomlKey(k)}=${toml(v)}`)
    .join(',')}}`;

function mcpArgs(servers: Record<string, McpServerConfig>): string[] {
  const args: string[] = [];
  for (const [name, server] of Object.entries(servers)) {
    const key = `mcp_servers.${tomlKey(name)}`;
    if ('url' in server && typeof server.url === 'string') {
      args.push('-c', `${key}.url=${toml(server.url)}`);
      const headers = (server as { headers?: Record<string, string> }).headers;
      if (headers && Object.keys(headers).length > 0) args.push('-c', `${key}.http_headers=${tomlTable(headers)}`);
    } else if ('command' in server && typeof server.command === 'string') {
      args.push('-c', `${key}.command=${toml(server.command)}`);
      if (server.args?.length) args.push('-c', `${key}.args=${toml(server.args)}`);
      if (server.env && Object.keys(server.env).length > 0) args.push('-c', `${key}.env=${tomlTable(server.env)}`);
    }
  }
  return args;
}

/** Codex's efforts; Oz's levels map onto them by name (`max` is its highest). */
const EFFORTS: Record<string, string> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'xhigh' };

const ARCH_DIRS: Partial<Record<NodeJS.Architecture, [string, string]>> = {
  x64: ['codex-linux-x64', 'x86_64-unknown-linux-musl'],
  arm64: ['codex-linux-arm64', 'aarch64-unknown-linux-musl'],
};

interface CodexState {
  /** Actions started but not finished, by item id (their `action` block was recorded at item.started). */
  started: Set<string>;
}

type CodexItem = { id?: string; type?: string; [field: string]: unknown };

function itemAction(item: CodexItem): Extract<ContentBlock, { type: 'action' }> | undefined {
  const id = String(item.id ?? '');
  switch (item.type) {
    case 'command_execution':
      return { type: 'action', id, category: 'command', name: 'exec_command', input: { cmd: String(item.command ?? '') } };
    case 'file_change':
      return { type: 'action', id, category: 'files', name: 'apply_patch', input: { changes: item.changes ?? [] } };
    case 'mcp_tool_call':
      return {
        type: 'action',
        id,
        category: 'integration',
        name: String(item.tool ?? 'mcp_tool'),
        input: { server: item.server, ...actionInput(item.arguments) },
      };
    case 'web_search':
      return { type: 'action', id, category: actionCategory('web_search'), name: 'web_search', input: { query: item.query ?? '' } };
    default:
      return undefined;
  }
}

function itemResult(item: CodexItem, action: Extract<ContentBlock, { type: 'action' }>): ContentBlock {
  const failed =
    item.status === 'failed' || item.status === 'declined' || (item.type === 'command_execution' && typeof item.exit_code === 'number' && item.exit_code !== 0);
  const output: Record<string, unknown> = {};
  if (item.type === 'command_execution') {
    output.text = resultText(String(item.aggregated_output ?? ''));
    if (typeof item.exit_code === 'number') output.exit_code = item.exit_code;
  } else if (item.type === 'mcp_tool_call') {
    const error = (item.error as { message?: string } | null | undefined)?.message;
    output.text = resultText(error ?? JSON.stringify(item.result ?? null));
  } else if (item.type === 'file_change') {
    output.text = (item.changes as Array<{ path?: string; kind?: string }> | undefined)?.map((c) => `${c.kind ?? 'update'} ${c.path ?? ''}`).join('\n') ?? '';
  } else {
    output.text = '';
  }
  return {
    type: 'action_result',
    action_id: action.id,
    category: action.category,
    name: action.name,
    state: item.status === 'declined' ? 'denied' : failed ? 'failed' : 'completed',
    output,
  };
}

export const codexAdapter: HarnessAdapter<CodexState> = {
  type: 'codex',
  displayName: 'Codex',
  npmPackage: '@openai/codex',
  version: '0.171.0',
  bin: 'codex',
  resumes: true,
  executable(arch) {
    const dirs = ARCH_DIRS[arch];
    return dirs && `node_modules/@openai/${dirs[0]}/vendor/${dirs[1]}/bin/codex`;
  },
  newState: () => ({ started: new Set() }),

  invocation(input: HarnessInput) {
    const args = [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--cd',
      input.workspace,
      '-c',
      'model_provider=gateway',
      '-c',
      'model_providers.gateway.name="agent-runs model gateway"',
      '-c',
      `model_providers.gateway.base_url=${toml(`${input.gateway.url}/v1`)}`,
      '-c',
      'model_providers.gateway.wire_api="responses"',
      '-c',
      'model_providers.gateway.env_key="AGENT_MODEL_GATEWAY_KEY"',
      '-c',
      'analytics.enabled=false',
      '-c',
      'check_for_update_on_startup=false',
      '--disable',
      'plugins',
      '--disable',
      'remote_plugin',
      '--disable',
      'apps',
      '--disable',
      'plugin_sharing',
      '--disable',
      'tool_suggest',
      ...mcpArgs(input.mcpServers),
    ];
    if (input.basePrompt) args.push('-c', `developer_instructions=${toml(input.basePrompt)}`);
    if (input.modelId) args.push('--model', input.modelId);
    const effort = input.reasoningLevel && EFFORTS[input.reasoningLevel.toLowerCase()];
    if (effort) args.push('-c', `model_reasoning_effort=${toml(effort)}`);
    if (input.resumeSessionId) args.push('resume', input.resumeSessionId);
    // After `--`, a prompt that starts with `-` is still the prompt.
    args.push('--', input.prompt);
    // Its home must exist before it starts: the harness home itself (created by the runner).
    return { args, env: { CODEX_HOME: input.stateDir }, files: [] };
  },

  parse(line, state) {
    const event = jsonLine(line);
    if (!event) return [];
    const item = event.item as CodexItem | undefined;
    switch (event.type) {
      case 'thread.started':
        return typeof event.thread_id === 'string' ? [{ kind: 'session', id: event.thread_id }] : [];
      case 'item.started': {
        const action = item && itemAction(item);
        if (!action) return [];
        state.started.add(action.id);
        return [{ kind: 'message', role: 'assistant', content: [action] }];
      }
      case 'item.completed': {
        if (!item) return [];
        if (item.type === 'agent_message')
          return typeof item.text === 'string' && item.text !== ''
            ? [{ kind: 'message', role: 'assistant', content: [{ type: 'text', text: item.text }] }]
            : [];
        // Codex's own notices (a model it has no metadata for, …): shown, not fatal.
        if (item.type === 'error') return [{ kind: 'error', message: String(item.message ?? ''), fatal: false }];
        const action = itemAction(item);
        if (!action) return [];
        const events: HarnessEvent[] = [];
        // An action reported only once it finished (no item.started) still gets its action block first.
        if (!state.started.delete(action.id)) events.push({ kind: 'message', role: 'assistant', content: [action] });
        events.push({ kind: 'message', role: 'tool', content: [itemResult(item, action)] });
        return events;
      }
      case 'turn.completed': {
        const usage = event.usage as { input_tokens?: number; output_tokens?: number } | undefined;
        if (!usage) return [];
        const prompt = usage.input_tokens ?? 0;
        const completion = usage.output_tokens ?? 0;
        return [{ kind: 'usage', usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }];
      }
      case 'turn.failed':
        return [{ kind: 'error', message: String((event.error as { message?: unknown } | undefined)?.message ?? 'the turn failed'), fatal: true }];
      case 'error':
        // Also a stream retry ("Reconnecting…"): the exit status decides.
        return [{ kind: 'error', message: String(event.message ?? 'error'), fatal: false }];
      default:
        return [];
    }
  },
};
