#!/usr/bin/env node
// Generates every artifact derived from openapi/v1.yaml:
//   - TypeScript types (openapi-typescript) into each TypeScript package's src/generated/api.ts
//   - Python SDK models (datamodel-code-generator) into packages/sdk-python/src/agent_runs/types/
//   - the TypeScript SDK's method list, packages/sdk/api.md
// `--check` regenerates in memory and fails when a committed file differs (CI's drift check).
// `--root <dir>` runs against another checkout (used by the drift check's own test).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { ensurePythonEnv, repositoryRoot as defaultRoot } from './python-env.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const rootIndex = args.indexOf('--root');
const root = rootIndex >= 0 ? path.resolve(args[rootIndex + 1]) : defaultRoot;
const skipPython = args.includes('--skip-python');

const specPath = path.join(root, 'openapi/v1.yaml');
const typeTargets = ['packages/server/src/generated/api.ts', 'packages/sdk/src/generated/api.ts'];
const header =
  '/**\n * Generated from openapi/v1.yaml by `pnpm generate` (openapi-typescript). Do not edit by hand.\n */\n\n';

async function generateTypes() {
  const ast = await openapiTS(new URL(`file://${specPath}`), {
    alphabetize: false,
    exportType: true,
    rootTypes: false,
    defaultNonNullable: false,
    // Runtime arrays of every enum's values, so the SDK and CLI list them without hand-written copies.
    enumValues: true,
  });
  return header + astToString(ast);
}

const stale = [];
function emit(relativePath, content) {
  const target = path.join(root, relativePath);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (current === content) return;
  if (check) {
    stale.push(relativePath);
    return;
  }
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${relativePath}`);
}

const types = await generateTypes();
for (const target of typeTargets) emit(target, types);

// The SDK's method list (api.md) is derived from the spec and the SDK's resources; it has no --root.
if (root === defaultRoot) {
  try {
    const out = execFileSync(process.execPath, [path.join(root, 'packages/sdk/scripts/api-md.mjs'), ...(check ? ['--check'] : [])], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (out.trim() && !check) console.log(out.trim());
  } catch (error) {
    if (check) stale.push(`packages/sdk/api.md (${(error.stderr || error.stdout || '').trim()})`);
    else throw error;
  }
}

const pythonGenerator = path.join(root, 'packages/sdk-python/scripts/generate_models.py');
if (!skipPython && existsSync(pythonGenerator)) {
  const python = ensurePythonEnv();
  try {
    const out = execFileSync(python, [pythonGenerator, ...(check ? ['--check'] : []), '--root', root], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (out.trim()) console.log(out.trim());
  } catch (error) {
    if (check) stale.push(`packages/sdk-python (${(error.stdout || error.stderr || '').trim()})`);
    else throw error;
  }
}

if (check) {
  if (stale.length > 0) {
    console.error(`Generated files are stale; run \`pnpm generate\` and commit:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log('Generated files are up to date.');
}
