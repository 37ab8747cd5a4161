/**
 * For the adapters' unit tests: one execution's input (every field set, override what a test is about)
 * and a CLI's stream lines parsed in order with one state, as the runner parses them.
 */
import type { HarnessAdapter, HarnessEvent, HarnessInput } from '../../../src/engine/harnesses/adapter';

export function parseAll<S>(adapter: HarnessAdapter<S>, lines: unknown[]): HarnessEvent[] {
  const state = adapter.newState();
  return lines.flatMap((line) => adapter.parse(typeof line === 'string' ? line : JSON.stringify(line), state));
}

export const harnessInput = (overrides: Partial<HarnessInput> = {}): HarnessInput => ({
  prompt: '-fix the test',
  basePrompt: 'Be brief.',
  modelId: 'm-1',
  reasoningLevel: 'max',
  resumeSessionId: undefined,
  mcpServers: { 'my tools': { command: 'node', args: ['server.js'], env: { TOKEN: 'x"y' } }, docs: { url: 'https://mcp.example.com/mcp' } },
  gateway: { url: 'http://model-gateway.internal', key: 'mgw_key' },
  stateDir: '/workspace/.agent-runs/harnesses/x',
  workspace: '/workspace',
  ...overrides,
});
