/**
 * The SDK as a user installs it: `pnpm pack` (which runs prepack → tsup and applies publishConfig), then
 * `npm install` of the tarball into a throwaway project, then plain `node` (no tsx, no loader) importing
 * it as ESM and requiring it as CommonJS, each calling a method against a local HTTP server, and `tsc`
 * type-checking a consumer against the shipped .d.ts/.d.cts.
 *
 * Offline: openapi-fetch and its one dependency are copied from the workspace's node_modules first, so
 * npm never needs the registry (`--offline`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { VERSION } from '../../src/version';

const sdkRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = path.resolve(sdkRoot, '../..');
const packageManager: string = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).packageManager;
const apiKey = 'ar_live_' + 'k'.repeat(43);

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
}

// Plain Node: nothing from the test runner's environment (a loader in NODE_OPTIONS, the SDK's env vars).
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_OPTIONS' || key.startsWith('AGENT_RUNS_') || key.startsWith('VITEST')) continue;
    env[key] = value;
  }
  return env;
}

function run(file: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Async on purpose: the HTTP server the children call runs in this process.
    execFile(file, args, { cwd, env: childEnv(), timeout: 90_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

describe('packed package in plain Node', () => {
  let tmp: string;
  let project: string;
  let server: Server;
  let baseURL: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runs-sdk-pack-'));
    project = path.join(tmp, 'consumer');
    fs.mkdirSync(project);

    // A dist left by an earlier build would hide a pack that does not build.
    fs.rmSync(path.join(sdkRoot, 'dist'), { recursive: true, force: true });
    await run('npx', ['-y', packageManager, 'pack', '--pack-destination', tmp], sdkRoot);
    const tarball = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    // openapi-fetch (the one runtime dependency) and its dependency, copied from the workspace: npm finds
    // the SDK's dependency already satisfied and needs no registry.
    const openapiFetch = fs.realpathSync(path.join(sdkRoot, 'node_modules/openapi-fetch'));
    const helpers = fs.realpathSync(path.join(openapiFetch, '../openapi-typescript-helpers'));
    const dependencies: Record<string, string> = {};
    for (const dir of [openapiFetch, helpers]) {
      const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      fs.cpSync(dir, path.join(project, 'node_modules', name), { recursive: true, dereference: true });
      dependencies[name] = version;
    }
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }));
    await run(
      'npm',
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        '--cache',
        path.join(tmp, 'npm-cache'),
        path.join(tmp, tarball!),
      ],
      project,
    );

    server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      const match = /^\/api\/v1\/agent\/runs\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method !== 'GET' || !match) {
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
        return;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ run_id: match[1], task_id: match[1], title: 't', state: 'SUCCEEDED', prompt: 'p' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('ships dist (ESM, CJS, .d.ts, .d.cts) and points its entry there, not at src', () => {
    const pkgDir = path.join(project, 'node_modules/@agent-runs/sdk');
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(pkg.main).toBe('./dist/index.cjs');
    expect(pkg.types).toBe('./dist/index.d.ts');
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
      expect(fs.existsSync(path.join(pkgDir, 'dist', file)), file).toBe(true);
    }
    expect(fs.existsSync(path.join(pkgDir, 'src'))).toBe(false);
  });

  it('depends on nothing unpublished: the contract package is bundled into the JS and the declarations', () => {
    const pkgDir = path.join(project, 'node_modules/@agent-runs/sdk');
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['openapi-fetch']);
    expect(pkg.peerDependencies).toBeUndefined();
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
      expect(fs.readFileSync(path.join(pkgDir, 'dist', file), 'utf8'), file).not.toContain('@agent-runs/contract');
    }
  });

  it.each([
    [
      'esm.mjs',
      `import AgentRunsDefault, { AgentRuns, NotFoundError, runStateValues } from '@agent-runs/sdk';
if (AgentRunsDefault !== AgentRuns || typeof NotFoundError !== 'function') throw new Error('exports');
if (!runStateValues.includes('SUCCEEDED')) throw new Error('the contract enum values');
const client = new AgentRuns({ apiKey: process.argv[2], baseURL: process.argv[3], maxRetries: 0 });
const run = await client.agent.runs.retrieve('run_esm');
console.log(JSON.stringify({ run_id: run.run_id, state: run.state }));`,
      'run_esm',
    ],
    [
      'cjs.cjs',
      `const { AgentRuns, NotFoundError } = require('@agent-runs/sdk');
if (typeof NotFoundError !== 'function') throw new Error('exports');
const client = new AgentRuns({ apiKey: process.argv[2], baseURL: process.argv[3], maxRetries: 0 });
client.agent.runs.retrieve('run_cjs').then((run) => console.log(JSON.stringify({ run_id: run.run_id, state: run.state })));`,
      'run_cjs',
    ],
  ])('%s: node loads it and a call reaches the server', async (file, source, runId) => {
    fs.writeFileSync(path.join(project, file), source);
    const before = seen.length;
    const { stdout } = await run(process.execPath, [file, apiKey, baseURL], project);
    expect(JSON.parse(stdout.trim())).toEqual({ run_id: runId, state: 'SUCCEEDED' });
    const request = seen.slice(before).find((r) => r.url === `/api/v1/agent/runs/${runId}`);
    expect(request?.method).toBe('GET');
    expect(request?.headers['user-agent']).toBe(`AgentRuns/JS ${VERSION}`);
  });

  // oxlint-disable-next-line vitest/expect-expect -- run() rejects when tsc exits non-zero, which fails the test
  it('type-checks a consumer against the shipped declarations (ESM and CJS)', async () => {
    fs.writeFileSync(
      path.join(project, 'consumer.mts'),
      `import { AgentRuns, type RunItem } from '@agent-runs/sdk';
const client = new AgentRuns({ apiKey: 'k' });
export const state: Promise<RunItem['state']> = client.agent.runs.retrieve('r').then((r) => r.state);
// @ts-expect-error the contract's types came along (a run state is one of its enum, not \`any\`)
export const notAState: RunItem['state'] = 'NOT_A_STATE';
// @ts-expect-error the declarations are real: an unknown method is an error
client.agent.runs.nope();\n`,
    );
    fs.writeFileSync(
      path.join(project, 'consumer.cts'),
      `import sdk = require('@agent-runs/sdk');
export const client: sdk.AgentRuns = new sdk.AgentRuns({ apiKey: 'k' });\n`,
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    await run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  }, 120_000); // tsc over the SDK's declarations is CPU-bound: past 30 s on a busy two-CPU machine
});
