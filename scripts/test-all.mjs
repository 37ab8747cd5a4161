#!/usr/bin/env node
// `pnpm test`: every test of every package — TypeScript (vitest, all workspace projects) and Python (pytest
// in the SDK's virtualenv), side by side: the Python suite waits mostly on its servers and the network, so
// it fits in the TypeScript suite's gaps (docs/decisions.md §A faster, steadier test suite). The TypeScript
// output streams; the Python output is held and printed whole when that suite ends, so the two never
// interleave. PostgreSQL variants of the database tests run when TEST_POSTGRES_URL is set (.ci/run starts a
// local server); otherwise they are skipped and say so.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from './python-env.mjs';

const bin = (name) => path.join(repositoryRoot, 'node_modules/.bin', name);
if (!process.env.TEST_POSTGRES_URL) {
  console.log('TEST_POSTGRES_URL is not set: database tests run on SQLite only (PostgreSQL half skipped).');
}

/** Runs a suite; answers its exit status. `held`: collect its output and print it when it ends. */
function runSuite(title, command, args, { held = false } = {}) {
  const child = spawn(command, args, { cwd: repositoryRoot, stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const output = [];
  if (held) {
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
  }
  const started = Date.now();
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (held) process.stdout.write(`\n=== ${title} ===\n${Buffer.concat(output).toString('utf8')}`);
      console.log(`\n=== ${title}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s ===`);
      resolve({ title, ok: code === 0 });
    });
  });
}

console.log('=== TypeScript tests (vitest) and Python SDK tests (pytest, output when it ends) ===');
const results = await Promise.all([
  runSuite('TypeScript tests (vitest)', bin('vitest'), ['run']),
  runSuite('Python SDK tests (pytest)', process.execPath, [path.join(repositoryRoot, 'scripts/test-python.mjs')], { held: true }),
]);
const failed = results.filter((result) => !result.ok).map((result) => result.title);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
