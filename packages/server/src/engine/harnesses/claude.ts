/**
 * Claude Code (`@anthropic-ai/claude-code`): `claude -p --output-format stream-json --verbose`,
 * non-interactive, one JSON message per stdout line (docs/decisions.md §Third-party harnesses).
 *
 * - endpoint: ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, the gateway's and this execution's key;
 * - quiet: non-essential traffic, auto-update, telemetry and error reporting off;
 * - state: CLAUDE_CONFIG_DIR in the run's harness home (its sessions, so `--resume <session>` continues one);
 * - base_prompt as `--append-system-prompt`, MCP servers as `--mcp-config` (strict: only the run's),
 *   `reasoning_level` as `--effort`; permission prompts off (the run's sandbox is the boundary).
 */
import { actionCategory, actionInput, jsonLine, resultText, type HarnessAdapter, type HarnessEvent, type HarnessInput } from './adapter';
import type { ContentBlock, McpServerConfig } from '../../runs/contract';

function mcpConfig(servers: Record<string, McpServerConfig>): string {
  const mcpServers: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    if ('url' in server && typeof server.url === 'string') {
      mcpServers[name] = {
        type: 'http',
        url: server.url,
        ...((server as { headers?: unknown }).headers ? { headers: (server as { headers?: unknown }).headers } : {}),
      };
    } else if ('command' in server && typeof server.command === 'string') {
      mcpServers[name] = { type: 'stdio', command: server.command, args: server.args ?? [], env: server.env ?? {} };
    }
  }
  return JSON.stringify({ mcpServers });
}

/** Claude Code's efforts; Oz's levels map onto them by name (`minimal` is its lowest, `low`). */
const EFFORTS: Record<string, string> = { minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'max' };

const ARCH_PACKAGES: Partial<Record<NodeJS.Architecture, string>> = { x64: 'claude-code-linux-x64', arm64: 'claude-code-linux-arm64' };

interface ClaudeState {
  /** The actions recorded, by tool_use id: their result names them again. */
  actions: Map<string, { name: string; category: Extract<ContentBlock, { type: 'action' }>['category'] }>;
}

type Block = { type?: string; [field: string]: unknown };

/** A tool_result's content: a string, or text blocks. */
function resultContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: Block) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function assistantBlocks(blocks: Block[], state: ClaudeState): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') out.push({ type: 'text', text: block.text });
    if (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use') {
      const id = String(block.id ?? '');
      const name = String(block.name ?? 'tool');
      const category = actionCategory(name, block.type === 'mcp_tool_use');
      state.actions.set(id, { name, category });
      out.push({ type: 'action', id, category, name, input: actionInput(block.input) });
    }
  }
  return out;
}

function toolResults(blocks: Block[], state: ClaudeState): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    const id = String(block.tool_use_id ?? '');
    const action = state.actions.get(id) ?? { name: 'tool', category: 'command' as const };
    out.push({
      type: 'action_result',
      action_id: id,
      category: action.category,
      name: action.name,
      state: block.is_error === true ? 'failed' : 'completed',
      output: { text: resultText(resultContent(block.content)) },
    });
  }
  return out;
}

export const claudeAdapter: HarnessAdapter<ClaudeState> = {
  type: 'claude',
  displayName: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  version: '2.1.197',
  bin: 'claude',
  resumes: true,
  executable(arch) {
    const pkg = ARCH_PACKAGES[arch];
    return pkg && `node_modules/@anthropic-ai/${pkg}/claude`;
  },
  newState: () => ({ actions: new Map() }),

  invocation(input: HarnessInput) {
    const args = ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];
    if (Object.keys(input.mcpServers).length > 0) args.push('--mcp-config', mcpConfig(input.mcpServers), '--strict-mcp-config');
    if (input.basePrompt) args.push('--append-system-prompt', input.basePrompt);
    if (input.modelId) args.push('--model', input.modelId);
    const effort = input.reasoningLevel && EFFORTS[input.reasoningLevel.toLowerCase()];
    if (effort) args.push('--effort', effort);
    if (input.resumeSessionId) args.push('--resume', input.resumeSessionId);
    args.push('--', input.prompt);
    return {
      args,
      env: {
        ANTHROPIC_BASE_URL: input.gateway.url,
        ANTHROPIC_API_KEY: input.gateway.key,
        CLAUDE_CONFIG_DIR: `${input.stateDir}/claude`,
        // Its permission bypass is refused to root unless it is told it is sandboxed (it is).
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
      files: [],
    };
  },

  parse(line, state) {
    const event = jsonLine(line);
    if (!event) return [];
    const message = event.message as { content?: unknown } | undefined;
    const blocks = Array.isArray(message?.content) ? (message.content as Block[]) : [];
    switch (event.type) {
      case 'system':
        if (event.subtype === 'init' && typeof event.session_id === 'string') return [{ kind: 'session', id: event.session_id }];
        if (event.subtype === 'api_retry')
          return [{ kind: 'error', message: `model request failed (${String(event.error ?? 'unknown')}), retry ${String(event.attempt ?? '')}`, fatal: false }];
        return [];
      case 'assistant': {
        const content = assistantBlocks(blocks, state);
        return content.length > 0 ? [{ kind: 'message', role: 'assistant', content }] : [];
      }
      case 'user': {
        const content = toolResults(blocks, state);
        return content.length > 0 ? [{ kind: 'message', role: 'tool', content }] : [];
      }
      case 'result': {
        const events: HarnessEvent[] = [];
        const usage = event.usage as
          | { input_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number; output_tokens?: number }
          | undefined;
        if (usage) {
          const prompt = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
          const completion = usage.output_tokens ?? 0;
          events.push({ kind: 'usage', usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
        }
        if (event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success')) {
          const errors = Array.isArray(event.errors) ? (event.errors as unknown[]).map(String).join('; ') : '';
          const said = typeof event.result === 'string' && event.result !== '' ? event.result : errors || String(event.subtype ?? 'error');
          events.push({ kind: 'error', message: said, fatal: true });
        }
        return events;
      }
      default:
        return [];
    }
  },
};
