#!/usr/bin/env node
// Generates every artifact derived from openapi/v1.yaml:
//   - TypeScript types and enum values (openapi-typescript) into the contract package,
//     packages/contract/src/generated/api.ts, which the server and the SDK import as @agent-runs/contract,
//     followed by `queryParametersWithDefaults` (which query parameters of each operation have a default)
//   - Python SDK models (datamodel-code-generator) into packages/sdk-python/src/agent_runs/types/
//   - the TypeScript SDK's method list, packages/sdk/api.md
// `--check` regenerates in memory and fails when a committed file differs (CI's drift check).
// `--root <dir>` runs against another checkout (used by the drift check's own test).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import YAML from 'yaml';
import { ensurePythonEnv, repositoryRoot as defaultRoot } from './python-env.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const rootIndex = args.indexOf('--root');
const root = rootIndex >= 0 ? path.resolve(args[rootIndex + 1]) : defaultRoot;
const skipPython = args.includes('--skip-python');

const specPath = path.join(root, 'openapi/v1.yaml');
const typesTarget = 'packages/contract/src/generated/api.ts';
const header = '/**\n * Generated from openapi/v1.yaml by `pnpm generate` (openapi-typescript). Do not edit by hand.\n */\n\n';

async function generateTypes() {
  const ast = await openapiTS(new URL(`file://${specPath}`), {
    alphabetize: false,
    exportType: true,
    rootTypes: false,
    defaultNonNullable: false,
    // Runtime arrays of every enum's values, so the SDK and CLI list them without hand-written copies.
    enumValues: true,
  });
  return header + astToString(ast) + queryParametersWithDefaults();
}

/**
 * Per operation, the names of the query parameters whose schema has a default. The request validator fills
 * those in (packages/server/src/http/validator.ts), so the server's handlers read them as always present
 * (packages/server/src/api/operations.ts); openapi-typescript marks them optional, as they are for a client.
 */
function queryParametersWithDefaults() {
  const spec = YAML.parse(readFileSync(specPath, 'utf8'));
  const resolve = (node) =>
    node?.$ref
      ? node.$ref
          .split('/')
          .slice(1)
          .reduce((at, key) => at[key], spec)
      : node;
  const lines = [];
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of ['get', 'put', 'post', 'delete', 'patch'].map((method) => item[method]).filter(Boolean)) {
      const names = [...(item.parameters ?? []), ...(operation.parameters ?? [])]
        .map(resolve)
        .filter((parameter) => parameter.in === 'query' && resolve(parameter.schema)?.default !== undefined)
        .map((parameter) => JSON.stringify(parameter.name));
      if (names.length > 0) lines.push(`    ${operation.operationId}: ${names.join(' | ')};`);
    }
  }
  return (
    '/** The query parameters of each operation that have a default in the contract (scripts/generate.mjs). */\n' +
    `export interface queryParametersWithDefaults {\n${lines.join('\n')}\n}\n`
  );
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

emit(typesTarget, await generateTypes());

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
