#!/usr/bin/env node
// `pnpm test:cluster`: several processes of the compiled server on one PostgreSQL (test/cluster, its own
// vitest config; not part of `pnpm test`). Needs TEST_POSTGRES_URL (`bash scripts/ci/start-postgres.sh`
// prints one). Counts scale through CLUSTER_RUNS and friends (docs/decisions.md §Several processes); the
// figures are the `cluster figure:` lines, repeated at the end.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from './python-env.mjs';

if (!process.env.TEST_POSTGRES_URL) {
  console.error('pnpm test:cluster needs TEST_POSTGRES_URL: run `bash scripts/ci/start-postgres.sh` and export the URL it prints.');
  process.exit(2);
}
const started = Date.now();
const vitest = spawn(path.join(repositoryRoot, 'node_modules/.bin/vitest'), ['run', '--config', 'test/cluster/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: repositoryRoot,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const figures = [];
let pending = '';
vitest.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines.map((text) => text.replace(/\x1b\[[0-9;]*m/g, ''))) if (line.startsWith('cluster')) figures.push(line);
});
vitest.on('exit', (code, signal) => {
  console.log(`\n=== pnpm test:cluster: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
  for (const line of figures) console.log(line);
  process.exit(code ?? (signal ? 1 : 0));
});
