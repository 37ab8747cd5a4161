#!/usr/bin/env node
// `pnpm lint:python`: ruff (lint, then format check) over every Python file of the repository with ruff.toml,
// then pyright in strict mode over the Python SDK (packages/sdk-python/pyproject.toml). Both are pinned in the
// SDK's dev extras and run from its virtualenv.
import { spawnSync } from 'node:child_process';
import { ensurePythonEnv, pythonPackageDir, repositoryRoot } from './python-env.mjs';

const python = ensurePythonEnv();
const steps = [
  { args: ['-m', 'ruff', 'check', '.'], cwd: repositoryRoot },
  { args: ['-m', 'ruff', 'format', '--check', '.'], cwd: repositoryRoot },
  { args: ['-m', 'pyright'], cwd: pythonPackageDir },
];
let status = 0;
for (const { args, cwd } of steps) {
  console.log(`$ python ${args.slice(1).join(' ')}`);
  const result = spawnSync(python, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) status = result.status ?? 1;
}
process.exit(status);
