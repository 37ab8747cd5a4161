// The reference docs' code samples (scripts/lib/code-samples.mjs, put in the page by `pnpm docs:build`) run:
// every curl sample and every TypeScript SDK sample against the Prism mock of the contract, which refuses a
// request that breaks it; every Python SDK sample at least parses here (packages/sdk-python/tests/
// test_code_samples.py runs them against the mock too). A sample that drifts from the contract or the SDK fails.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AgentRuns from '@agent-runs/sdk';
// @ts-expect-error -- plain ESM helpers shared with the docs build and the Python test runner
import { codeSamples } from '../../scripts/lib/code-samples.mjs';
// @ts-expect-error -- plain ESM helper shared with the Python test runner
import { startMock } from '../../scripts/lib/services.mjs';

const run = promisify(execFile);
const repositoryRoot = path.resolve(__dirname, '../..');
const API_KEY = 'ar_live_example';

interface Sample {
  lang: string;
  label: string;
  source: string;
}
const { samples } = codeSamples(repositoryRoot) as { samples: Map<string, Sample[]> };
const byLabel = (label: string) =>
  [...samples].flatMap(([operationId, list]) => list.filter((s) => s.label === label).map((s) => [operationId, s.source] as const));

/** Operations the SDKs have no method for (not called with an API key), and Oz's legacy alias, which only the TypeScript SDK keeps. */
const NOT_EVERY_SDK: Record<string, string[]> = {
  createRunLegacy: ['curl', 'TypeScript SDK'],
  ...Object.fromEntries(
    ['getArtifactContent', 'receiveWebhookDelivery', 'receiveWebhookDeliveryWithToken', 'getHealth', 'getReadiness', 'getMetrics'].map((id) => [id, ['curl']]),
  ),
};

describe('code samples of the reference docs', () => {
  let mock: { url: string; apiUrl: string; stop(): Promise<void> };
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());

  it('every operation has a curl sample, and one per SDK wherever the SDK has a method for it', () => {
    expect(samples.size).toBeGreaterThan(70);
    for (const [operationId, list] of samples) {
      const labels = list.map((s) => s.label);
      expect(labels, operationId).toEqual(NOT_EVERY_SDK[operationId] ?? ['curl', 'TypeScript SDK', 'Python SDK']);
    }
  });

  it.concurrent.each(byLabel('curl'))('curl: %s', async (_operationId, source) => {
    // --fail-with-body: an answer of 400 or more (the mock's contract violations) fails the command.
    const script = `curl() { command curl --fail-with-body --max-time 20 "$@"; }\n${source.replaceAll('http://localhost:8080', mock.url)}`;
    const { stdout } = await run('bash', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', AGENT_RUNS_BASE_URL: mock.apiUrl, AGENT_RUNS_API_KEY: API_KEY },
    });
    expect(typeof stdout).toBe('string');
  });

  it.each(byLabel('TypeScript SDK'))('TypeScript SDK: %s', async (_operationId, source) => {
    const [importLine, ...body] = source.split('\n');
    expect(importLine).toBe("import AgentRuns from '@agent-runs/sdk';");
    const printed: unknown[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    // A loop stops at its first item here: the mock's example page always says another follows, and the
    // team's event stream never ends.
    const sample = new AsyncFunction('AgentRuns', 'console', body.join('\n').replace(/(for await \([^\n]*\n\s*console\.log\(\w+\);)/, '$1 break;'));
    class AgainstMock extends AgentRuns {
      constructor() {
        super({ apiKey: API_KEY, baseURL: mock.apiUrl, maxRetries: 0 });
      }
    }
    await sample(AgainstMock, { log: (value: unknown) => printed.push(value) });
    // What it prints is the mock's answer (a sample of a call answering nothing prints nothing).
    if (source.includes('console.log')) expect(printed.length).toBeGreaterThan(0);
  });

  it('every Python SDK sample parses', async () => {
    const sources = byLabel('Python SDK').map(([, source]) => source);
    expect(sources.length).toBeGreaterThan(60);
    const check = 'import ast, json, sys\nfor source in json.load(sys.stdin): ast.parse(source)';
    const child = run('python3', ['-c', check]);
    child.child.stdin!.end(JSON.stringify(sources));
    await expect(child).resolves.toBeDefined();
  });
});
