/**
 * The opencode adapter (engine/harnesses/opencode.ts) on lines opencode 1.18.33 really printed
 * (`run --format json`, driven by a scripted OpenAI-compatible provider), and the invocation it builds.
 * The CLI itself runs in opencode-harness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/engine/harnesses/opencode';
import type { HarnessInput } from '../../src/engine/harnesses/adapter';
import { harnessInput, parseAll } from './support/adapter-input';

const SESSION = 'ses_dd9494184ffeDbUYzIFJMp69xj';
const STEP_TOKENS = '"tokens":{"total":18,"input":11,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0';
// One run: a write call, then the final answer (two steps).
const WRITE_RUN = [
  `{"type":"step_start","timestamp":1795945846796,"sessionID":"${SESSION}","part":{"id":"prt_1","messageID":"msg_1","sessionID":"${SESSION}","type":"step-start"}}`,
  `{"type":"text","timestamp":1795945846796,"sessionID":"${SESSION}","part":{"id":"prt_2","messageID":"msg_1","sessionID":"${SESSION}","type":"text","text":"Writing the file.","time":{"start":1795945846584,"end":1795945846621}}}`,
  `{"type":"tool_use","timestamp":1795945846796,"sessionID":"${SESSION}","part":{"type":"tool","tool":"write","callID":"call_1","state":{"status":"completed","input":{"filePath":"/workspace/hello.txt","content":"hi from opencode\\n"},"output":"Wrote file successfully.","metadata":{"diagnostics":{},"filepath":"/workspace/hello.txt","exists":false,"truncated":false},"title":"workspace/hello.txt","time":{"start":1795945846615,"end":1795945846666}},"id":"prt_3","sessionID":"${SESSION}","messageID":"msg_1"}}`,
  `{"type":"step_finish","timestamp":1795945846796,"sessionID":"${SESSION}","part":{"id":"prt_4","reason":"tool-calls","messageID":"msg_1","sessionID":"${SESSION}","type":"step-finish",${STEP_TOKENS}}}`,
  `{"type":"step_start","timestamp":1795945847186,"sessionID":"${SESSION}","part":{"id":"prt_5","messageID":"msg_2","sessionID":"${SESSION}","type":"step-start"}}`,
  `{"type":"text","timestamp":1795945847187,"sessionID":"${SESSION}","part":{"id":"prt_6","messageID":"msg_2","sessionID":"${SESSION}","type":"text","text":"Done: wrote hello.txt.","time":{"start":1795945847117,"end":1795945847121}}}`,
  `{"type":"step_finish","timestamp":1795945847187,"sessionID":"${SESSION}","part":{"id":"prt_7","reason":"stop","messageID":"msg_2","sessionID":"${SESSION}","type":"step-finish",${STEP_TOKENS}}}`,
];

// The defaults (./support/adapter-input.ts), without the options a test is not about.
const input = (over: Partial<HarnessInput> = {}) =>
  harnessInput({
    prompt: 'fix the bug',
    basePrompt: undefined,
    modelId: 'qwen3-coder',
    runModelId: 'gpt-test',
    reasoningLevel: undefined,
    mcpServers: {},
    stateDir: '/workspace/.agent-runs/harnesses/opencode',
    ...over,
  });

describe('the opencode stream', () => {
  it('becomes the session (once), text, each tool call as its action and result, and each step’s usage', () => {
    const usage = { kind: 'usage', usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } };
    expect(parseAll(opencodeAdapter, WRITE_RUN)).toEqual([
      { kind: 'session', id: SESSION },
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'Writing the file.' }] },
      {
        kind: 'message',
        role: 'assistant',
        content: [
          { type: 'action', id: 'call_1', category: 'files', name: 'write', input: { filePath: '/workspace/hello.txt', content: 'hi from opencode\n' } },
        ],
      },
      {
        kind: 'message',
        role: 'tool',
        content: [
          { type: 'action_result', action_id: 'call_1', category: 'files', name: 'write', state: 'completed', output: { text: 'Wrote file successfully.' } },
        ],
      },
      usage,
      { kind: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done: wrote hello.txt.' }] },
      usage,
    ]);
  });

  it('records a command’s exit code (failed when not 0), a tool’s error, an MCP tool as integration, and counts cache and reasoning tokens', () => {
    const events = parseAll(opencodeAdapter, [
      `{"type":"tool_use","sessionID":"${SESSION}","part":{"type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"echo out; echo err >&2; exit 3","description":"fail on purpose"},"output":"out\\nerr\\n","metadata":{"output":"out\\nerr\\n","exit":3,"truncated":false},"title":"echo out","time":{"start":1,"end":2}}}}`,
      `{"type":"tool_use","sessionID":"${SESSION}","part":{"type":"tool","tool":"read","callID":"call_2","state":{"status":"error","input":{"filePath":"/workspace/missing.txt"},"error":"File not found: /workspace/missing.txt","time":{"start":1,"end":2}}}}`,
      `{"type":"tool_use","sessionID":"${SESSION}","part":{"type":"tool","tool":"mcp_tracker_create_issue","callID":"call_3","state":{"status":"completed","input":{"title":"x"},"output":"created"}}}`,
      `{"type":"step_finish","sessionID":"${SESSION}","part":{"type":"step-finish","tokens":{"total":40,"input":10,"output":5,"reasoning":3,"cache":{"write":2,"read":20}}}}`,
    ]);
    expect(events.slice(1).map((e) => (e.kind === 'message' ? e.content[0] : e))).toEqual([
      { type: 'action', id: 'call_1', category: 'command', name: 'bash', input: { command: 'echo out; echo err >&2; exit 3', description: 'fail on purpose' } },
      { type: 'action_result', action_id: 'call_1', category: 'command', name: 'bash', state: 'failed', output: { text: 'out\nerr\n', exit_code: 3 } },
      { type: 'action', id: 'call_2', category: 'files', name: 'read', input: { filePath: '/workspace/missing.txt' } },
      {
        type: 'action_result',
        action_id: 'call_2',
        category: 'files',
        name: 'read',
        state: 'failed',
        output: { text: 'File not found: /workspace/missing.txt' },
      },
      { type: 'action', id: 'call_3', category: 'integration', name: 'mcp_tracker_create_issue', input: { title: 'x' } },
      {
        type: 'action_result',
        action_id: 'call_3',
        category: 'integration',
        name: 'mcp_tracker_create_issue',
        state: 'completed',
        output: { text: 'created' },
      },
      { kind: 'usage', usage: { prompt_tokens: 32, completion_tokens: 8, total_tokens: 40 } },
    ]);
  });

  it('takes an error event as fatal, in the provider’s words', () => {
    const line = `{"type":"error","timestamp":1795946296561,"sessionID":"${SESSION}","error":{"name":"APIError","data":{"message":"The run used its max_tokens (10).","statusCode":429,"isRetryable":true,"responseBody":"{}"}}}`;
    expect(parseAll(opencodeAdapter, ['opencode is starting', line])).toEqual([
      { kind: 'session', id: SESSION },
      { kind: 'error', message: 'The run used its max_tokens (10).', fatal: true },
    ]);
  });
});

describe('the opencode invocation', () => {
  it('runs its own provider at the gateway, quietly, titled, in the run’s harness home', () => {
    const invocation = opencodeAdapter.invocation(
      input({ prompt: '-v is a flag\nsecond line', basePrompt: 'Be brief.', reasoningLevel: 'high', resumeSessionId: SESSION }),
    );
    expect(invocation.args).toEqual([
      'run',
      '--format',
      'json',
      '--pure',
      '--auto',
      '--title=-v is a flag',
      '--model',
      'agent-runs/qwen3-coder',
      '--session',
      SESSION,
      '--',
      '-v is a flag\nsecond line',
    ]);
    const { OPENCODE_CONFIG_CONTENT, ...env } = invocation.env;
    expect(env).toMatchObject({
      XDG_DATA_HOME: '/workspace/.agent-runs/harnesses/opencode/opencode/data',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
    });
    expect(JSON.parse(OPENCODE_CONFIG_CONTENT!)).toMatchObject({
      provider: {
        'agent-runs': {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://model-gateway.internal/v1', apiKey: 'mgw_key' },
          models: { 'qwen3-coder': { name: 'qwen3-coder', options: { reasoningEffort: 'high' } } },
        },
      },
      model: 'agent-runs/qwen3-coder',
      permission: { bash: 'allow', edit: 'allow' },
      instructions: ['/workspace/.agent-runs/harnesses/opencode/opencode/base-prompt.md'],
    });
    expect(invocation.files).toContainEqual({ path: '/workspace/.agent-runs/harnesses/opencode/opencode/base-prompt.md', content: 'Be brief.' });
    // Its config directory says its plugin SDK is installed, so it does not reach for the npm registry.
    expect(invocation.files).toContainEqual({
      path: '/workspace/.agent-runs/harnesses/opencode/opencode/config/opencode/node_modules/.agent-runs',
      content: '',
    });
  });

  it('names MCP servers mcp_<name> in its own shapes', () => {
    const config = JSON.parse(
      opencodeAdapter.invocation(
        input({
          modelId: undefined,
          mcpServers: { tracker: { url: 'https://mcp.example.com/mcp' }, local: { command: 'node', args: ['server.js'], env: { A: '1' } } },
        }),
      ).env.OPENCODE_CONFIG_CONTENT!,
    );
    expect(config.mcp).toEqual({
      mcp_tracker: { type: 'remote', url: 'https://mcp.example.com/mcp', enabled: true },
      mcp_local: { type: 'local', command: ['node', 'server.js'], environment: { A: '1' }, enabled: true },
    });
    expect(config.instructions).toBeUndefined();
    // Without harness.model_id, the run's model_id.
    expect(config.model).toBe('agent-runs/gpt-test');
  });
});
