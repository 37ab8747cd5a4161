#!/usr/bin/env node
// `pnpm test`: every test of every package — TypeScript (vitest, all workspace projects) then Python
// (pytest in the SDK's virtualenv). PostgreSQL variants of the database tests run when
// TEST_POSTGRES_URL is set (.ci/run starts a local server); otherwise they are skipped and say so.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from './python-env.mjs';

const bin = (name) => path.join(repositoryRoot, 'node_modules/.bin', name);
const steps = [
  ['TypeScript tests (vitest)', bin('vitest'), ['run']],
  ['Python SDK tests (pytest)', process.execPath, [path.join(repositoryRoot, 'scripts/test-python.mjs')]],
];
if (!process.env.TEST_POSTGRES_URL) {
  console.log('TEST_POSTGRES_URL is not set: database tests run on SQLite only (PostgreSQL half skipped).');
}
const failed = [];
for (const [title, command, args] of steps) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: repositoryRoot });
  if (result.status !== 0) failed.push(title);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
