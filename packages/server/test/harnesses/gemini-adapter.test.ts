/**
 * The Gemini CLI adapter (engine/harnesses/gemini.ts) on lines Gemini CLI 0.61.0 really printed
 * (`--output-format stream-json`, driven by a scripted Gemini-protocol provider), and the invocation it
 * builds. The CLI itself runs in gemini-harness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/engine/harnesses/gemini';
import type { HarnessInput } from '../../src/engine/harnesses/adapter';
import { harnessInput, parseAll } from './support/adapter-input';

// One run: a write_file call, then the final answer.
const WRITE_RUN = [
  '{"type":"init","timestamp":"2026-11-29T09:50:15.955Z","session_id":"3f1a4f0e-1111-4222-8333-444455556666","model":"gemini-2.5-pro"}',
  '{"type":"message","timestamp":"2026-11-29T09:50:15.956Z","role":"user","content":"write hello.txt"}',
  '{"type":"message","timestamp":"2026-11-29T09:50:16.048Z","role":"assistant","content":"I will write the file.","delta":true}',
  '{"type":"tool_use","timestamp":"2026-11-29T09:50:16.139Z","tool_name":"write_file","tool_id":"write_file__write_file_1795945816049_0","parameters":{"file_path":"hello.txt","content":"hi from gemini\\n"}}',
  '{"type":"tool_result","timestamp":"2026-11-29T09:50:16.330Z","tool_id":"write_file__write_file_1795945816049_0","status":"success"}',
  '{"type":"message","timestamp":"2026-11-29T09:50:16.397Z","role":"assistant","content":"Done: wrote","delta":true}',
  '{"type":"message","timestamp":"2026-11-29T09:50:16.398Z","role":"assistant","content":" hello.txt.","delta":true}',
  '{"type":"result","timestamp":"2026-11-29T09:50:16.399Z","status":"success","stats":{"total_tokens":46,"input_tokens":34,"output_tokens":12,"cached":0,"input":34,"duration_ms":444,"tool_calls":1,"models":{"gemini-2.5-pro":{"total_tokens":46,"input_tokens":34,"output_tokens":12,"cached":0,"input":34}}}}',
];

// The defaults (./support/adapter-input.ts), without the options a test is not about.
const input = (over: Partial<HarnessInput> = {}) =>
  harnessInput({
    prompt: 'fix the bug',
    basePrompt: undefined,
    modelId: undefined,
    runModelId: 'gpt-test',
    reasoningLevel: undefined,
    mcpServers: {},
    stateDir: '/workspace/.agent-runs/harnesses/gemini',
    ...over,
  });

describe('the Gemini CLI stream', () => {
  it('becomes the session, text gathered from its deltas, the action and its result, and the usage', () => {
    const id = 'write_file__write_file_1795945816049_0';
    expect(parseAll(geminiAdapter, WRITE_RUN)).toEqual([
      { kind: 'session', id: '3f1a4f0e-1111-4222-8333-444455556666' },
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'I will write the file.' }] },
      {
        kind: 'message',
        role: 'assistant',
        content: [{ type: 'action', id, category: 'files', name: 'write_file', input: { file_path: 'hello.txt', content: 'hi from gemini\n' } }],
      },
      {
        kind: 'message',
        role: 'tool',
        content: [{ type: 'action_result', action_id: id, category: 'files', name: 'write_file', state: 'completed', output: { text: '' } }],
      },
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done: wrote hello.txt.' }] },
      { kind: 'usage', usage: { prompt_tokens: 34, completion_tokens: 12, total_tokens: 46 } },
    ]);
  });

  it('records a shell command with its output, and a failed tool with the reason it gives', () => {
    const events = parseAll(geminiAdapter, [
      '{"type":"tool_use","timestamp":"2026-11-29T09:52:06.538Z","tool_name":"run_shell_command","tool_id":"run_shell_command__1","parameters":{"command":"echo out; echo err >&2; exit 3"}}',
      '{"type":"tool_result","timestamp":"2026-11-29T09:52:06.972Z","tool_id":"run_shell_command__1","status":"success","output":"out\\nerr"}',
      '{"type":"tool_use","timestamp":"2026-11-29T09:52:21.258Z","tool_name":"read_file","tool_id":"read_file__2","parameters":{"file_path":"missing.txt"}}',
      '{"type":"tool_result","timestamp":"2026-11-29T09:52:21.354Z","tool_id":"read_file__2","status":"error","output":"File not found.","error":{"type":"file_not_found","message":"File not found: /workspace/missing.txt"}}',
      '{"type":"tool_use","tool_name":"grep_search","tool_id":"g3","parameters":{"pattern":"TODO"}}',
      '{"type":"tool_use","tool_name":"mcp_tracker_create_issue","tool_id":"m4","parameters":{"title":"x"}}',
    ]);
    expect(events.map((e) => (e.kind === 'message' ? e.content[0] : e))).toEqual([
      { type: 'action', id: 'run_shell_command__1', category: 'command', name: 'run_shell_command', input: { command: 'echo out; echo err >&2; exit 3' } },
      {
        type: 'action_result',
        action_id: 'run_shell_command__1',
        category: 'command',
        name: 'run_shell_command',
        state: 'completed',
        output: { text: 'out\nerr' },
      },
      { type: 'action', id: 'read_file__2', category: 'files', name: 'read_file', input: { file_path: 'missing.txt' } },
      {
        type: 'action_result',
        action_id: 'read_file__2',
        category: 'files',
        name: 'read_file',
        state: 'failed',
        output: { text: 'File not found: /workspace/missing.txt' },
      },
      { type: 'action', id: 'g3', category: 'search', name: 'grep_search', input: { pattern: 'TODO' } },
      { type: 'action', id: 'm4', category: 'integration', name: 'mcp_tracker_create_issue', input: { title: 'x' } },
    ]);
  });

  it('takes an error result as fatal and a warning as a notice; banners are not events', () => {
    const events = parseAll(geminiAdapter, [
      'YOLO mode is enabled. All tool calls will be automatically approved.',
      '{"type":"message","role":"assistant","content":"Let me","delta":true}',
      '{"type":"error","timestamp":"2026-11-29T09:56:31.600Z","severity":"warning","message":"Loop detected, stopping execution"}',
      '{"type":"result","timestamp":"2026-11-29T09:56:32.076Z","status":"error","error":{"type":"unknown","message":"[API Error: You have exhausted your daily quota on this model.]"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0,"duration_ms":0,"tool_calls":0,"models":{}}}',
    ]);
    expect(events).toEqual([
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'Let me' }] },
      { kind: 'error', message: 'Loop detected, stopping execution', fatal: false },
      { kind: 'usage', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
      { kind: 'error', message: '[API Error: You have exhausted your daily quota on this model.]', fatal: true },
    ]);
  });
});

describe('the Gemini CLI invocation', () => {
  it('is headless, through the gateway, with its home, settings and base prompt in the run’s harness home', () => {
    const invocation = geminiAdapter.invocation(
      input({ prompt: '-n is a flag', basePrompt: 'Be brief.', modelId: 'gemini-3.1-pro-preview', reasoningLevel: 'low', resumeSessionId: 'abc' }),
    );
    expect(invocation.args).toEqual([
      '--output-format',
      'stream-json',
      '--yolo',
      '--model',
      'gemini-3.1-pro-preview',
      '--resume',
      'abc',
      '--prompt=-n is a flag',
    ]);
    expect(invocation.env).toMatchObject({
      GEMINI_CLI_HOME: '/workspace/.agent-runs/harnesses/gemini/gemini',
      GOOGLE_GEMINI_BASE_URL: 'http://model-gateway.internal',
      GEMINI_API_KEY: 'mgw_key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    });
    const files = Object.fromEntries((invocation.files ?? []).map((f) => [f.path, f.content]));
    const settings = JSON.parse(files['/workspace/.agent-runs/harnesses/gemini/gemini/.gemini/settings.json']!);
    expect(settings).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      modelConfigs: {
        customOverrides: [{ match: { model: 'gemini-3.1-pro-preview' }, modelConfig: { generateContentConfig: { thinkingConfig: { thinkingLevel: 'LOW' } } } }],
      },
    });
    expect(files['/workspace/.agent-runs/harnesses/gemini/gemini/.gemini/GEMINI.md']).toBe('Be brief.');
  });

  it('gives MCP servers as its settings name them, a 2.5 model a thinking budget, and without a model no override', () => {
    const settingsOf = (over: Partial<HarnessInput>) =>
      JSON.parse(geminiAdapter.invocation(input(over)).files!.find((f) => f.path.endsWith('settings.json'))!.content);
    const withMcp = settingsOf({
      mcpServers: {
        tracker: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer t' } },
        local: { command: 'node', args: ['server.js'], env: { A: '1' } },
      },
      modelId: 'gemini-2.5-pro',
      reasoningLevel: 'high',
    });
    expect(withMcp.mcpServers).toEqual({
      tracker: { httpUrl: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer t' } },
      local: { command: 'node', args: ['server.js'], env: { A: '1' } },
    });
    expect(withMcp.modelConfigs.customOverrides[0].modelConfig.generateContentConfig.thinkingConfig).toEqual({ thinkingBudget: 24576 });
    expect(settingsOf({ reasoningLevel: 'high' }).modelConfigs).toBeUndefined();
    expect(geminiAdapter.invocation(input()).args).not.toContain('--model');
  });
});
