/**
 * The codex and claude adapters on their CLIs' own stream lines (as Codex 0.171.0 and Claude Code 2.1.197
 * print them, shortened): what becomes conversation blocks, the session, usage notes and errors; and the
 * command lines they build (the gateway as the only endpoint, the run's options passed on).
 */
import { describe, expect, it } from 'vitest';
import { actionCategory } from '../../src/engine/harnesses/adapter';
import { claudeAdapter } from '../../src/engine/harnesses/claude';
import { codexAdapter } from '../../src/engine/harnesses/codex';
import { harnessInput as input, parseAll } from './support/adapter-input';

describe('the codex adapter', () => {
  it('turns its thread events into the session, actions with results, text, usage and errors', () => {
    const command = { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'false'", aggregated_output: 'no\n', exit_code: 1 };
    const events = parseAll(codexAdapter, [
      'Reading additional input from stdin...',
      { type: 'thread.started', thread_id: 'th-1' },
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `m` not found.' } },
      { type: 'turn.started' },
      { type: 'item.started', item: { ...command, aggregated_output: '', exit_code: null, status: 'in_progress' } },
      { type: 'item.completed', item: { ...command, status: 'failed' } },
      { type: 'item.completed', item: { id: 'item_2', type: 'file_change', changes: [{ path: 'a.txt', kind: 'add' }], status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_3', type: 'reasoning', text: 'thinking' } },
      { type: 'item.completed', item: { id: 'item_4', type: 'agent_message', text: 'Done.' } },
      { type: 'turn.completed', usage: { input_tokens: 80, cached_input_tokens: 0, output_tokens: 20 } },
      { type: 'turn.failed', error: { message: 'quota' } },
    ]);
    expect(events).toEqual([
      { kind: 'session', id: 'th-1' },
      { kind: 'error', message: 'Model metadata for `m` not found.', fatal: false },
      {
        kind: 'message',
        role: 'assistant',
        content: [{ type: 'action', id: 'item_1', category: 'command', name: 'exec_command', input: { cmd: "/bin/bash -lc 'false'" } }],
      },
      {
        kind: 'message',
        role: 'tool',
        content: [
          { type: 'action_result', action_id: 'item_1', category: 'command', name: 'exec_command', state: 'failed', output: { text: 'no\n', exit_code: 1 } },
        ],
      },
      {
        kind: 'message',
        role: 'assistant',
        content: [{ type: 'action', id: 'item_2', category: 'files', name: 'apply_patch', input: { changes: [{ path: 'a.txt', kind: 'add' }] } }],
      },
      {
        kind: 'message',
        role: 'tool',
        content: [{ type: 'action_result', action_id: 'item_2', category: 'files', name: 'apply_patch', state: 'completed', output: { text: 'add a.txt' } }],
      },
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { kind: 'usage', usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 } },
      { kind: 'error', message: 'quota', fatal: true },
    ]);
  });

  it("reaches models only through the gateway and passes the run's options on; a follow-up resumes its thread", () => {
    const { args, env } = codexAdapter.invocation(input({ resumeSessionId: 'th-1' }));
    expect(env).toEqual({ CODEX_HOME: '/workspace/.agent-runs/harnesses/x' });
    const configs = args.flatMap((arg, i) => (args[i - 1] === '-c' ? [arg] : []));
    expect(configs).toEqual(
      expect.arrayContaining([
        'model_provider=gateway',
        'model_providers.gateway.base_url="http://model-gateway.internal/v1"',
        'model_providers.gateway.wire_api="responses"',
        'model_providers.gateway.env_key="AGENT_MODEL_GATEWAY_KEY"',
        'analytics.enabled=false',
        'developer_instructions="Be brief."',
        'model_reasoning_effort="xhigh"',
        'mcp_servers."my tools".command="node"',
        'mcp_servers."my tools".args=["server.js"]',
        'mcp_servers."my tools".env={TOKEN="x\\"y"}',
        'mcp_servers.docs.url="https://mcp.example.com/mcp"',
      ]),
    );
    expect(args.slice(0, 2)).toEqual(['exec', '--json']);
    expect(args.slice(-4)).toEqual(['resume', 'th-1', '--', '-fix the test']);
    expect(args).toContain('--model');
    expect(JSON.stringify(args)).not.toContain('mgw_key');
  });
});

describe('the claude adapter', () => {
  it('turns its stream-json messages into the session, actions with results, text, usage and errors', () => {
    const events = parseAll(claudeAdapter, [
      { type: 'system', subtype: 'init', session_id: 'se-1', tools: ['Bash'] },
      { type: 'system', subtype: 'api_retry', attempt: 1, error: 'overloaded' },
      {
        type: 'assistant',
        message: {
          content: [
            { type: 'thinking', thinking: '…' },
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'tu-1', name: 'Read', input: { file_path: 'a.txt' } },
          ],
        },
      },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'tu-2', name: 'mcp__docs__search', input: { q: 'x' } }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'tu-1', content: [{ type: 'text', text: 'hello' }], is_error: false }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'tu-2', content: 'no such index', is_error: true }] } },
      {
        type: 'result',
        subtype: 'error_max_turns',
        is_error: true,
        result: '',
        usage: { input_tokens: 3, cache_creation_input_tokens: 4, cache_read_input_tokens: 5, output_tokens: 9 },
      },
    ]);
    expect(events).toEqual([
      { kind: 'session', id: 'se-1' },
      { kind: 'error', message: 'model request failed (overloaded), retry 1', fatal: false },
      {
        kind: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'action', id: 'tu-1', category: 'files', name: 'Read', input: { file_path: 'a.txt' } },
        ],
      },
      { kind: 'message', role: 'assistant', content: [{ type: 'action', id: 'tu-2', category: 'integration', name: 'mcp__docs__search', input: { q: 'x' } }] },
      {
        kind: 'message',
        role: 'tool',
        content: [{ type: 'action_result', action_id: 'tu-1', category: 'files', name: 'Read', state: 'completed', output: { text: 'hello' } }],
      },
      {
        kind: 'message',
        role: 'tool',
        content: [
          { type: 'action_result', action_id: 'tu-2', category: 'integration', name: 'mcp__docs__search', state: 'failed', output: { text: 'no such index' } },
        ],
      },
      { kind: 'usage', usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } },
      { kind: 'error', message: 'error_max_turns', fatal: true },
    ]);
  });

  it("reaches models only through the gateway and passes the run's options on; a follow-up resumes its session", () => {
    const { args, env } = claudeAdapter.invocation(input({ resumeSessionId: 'se-1', reasoningLevel: 'minimal' }));
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://model-gateway.internal',
      ANTHROPIC_API_KEY: 'mgw_key',
      CLAUDE_CONFIG_DIR: '/workspace/.agent-runs/harnesses/x/claude',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
    });
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('--append-system-prompt')).toBe('Be brief.');
    expect(after('--model')).toBe('m-1');
    expect(after('--effort')).toBe('low');
    expect(after('--resume')).toBe('se-1');
    expect(JSON.parse(after('--mcp-config')!)).toEqual({
      mcpServers: {
        'my tools': { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'x"y' } },
        docs: { type: 'http', url: 'https://mcp.example.com/mcp' },
      },
    });
    expect(args).toContain('--strict-mcp-config');
    expect(args.slice(-2)).toEqual(['--', '-fix the test']);
  });
});

describe('action categories', () => {
  it("maps the CLIs' tool names onto Oz's categories", () => {
    expect(['Bash', 'exec_command', 'run_shell_command', 'TodoWrite'].map((n) => actionCategory(n))).toEqual(['command', 'command', 'command', 'command']);
    expect(['Read', 'Write', 'Edit', 'apply_patch', 'write_file', 'replace'].map((n) => actionCategory(n))).toEqual(Array(6).fill('files'));
    expect(['Glob', 'Grep', 'WebSearch', 'search_file_content'].map((n) => actionCategory(n))).toEqual(Array(4).fill('search'));
    expect(['mcp__linear__list', 'anything'].map((n, i) => actionCategory(n, i === 1))).toEqual(['integration', 'integration']);
  });
});
