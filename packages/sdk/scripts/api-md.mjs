#!/usr/bin/env node
// Writes packages/sdk/api.md: every resource method of the SDK (walked from `class AgentRuns` in
// src/client.ts through the resource classes), with its HTTP method and path, operationId and the types
// its file exports, and checks it against openapi/v1.yaml: every operation of the REST API must have a
// method (Ingress, Operations and any other operation with `security: []` — a signed download URL — excepted:
// they are not called with an API key).
// `--check` fails when api.md is stale or an operation has no method.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import YAML from 'yaml';

const sdkRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const specPath = path.resolve(sdkRoot, '../../openapi/v1.yaml');
const outPath = path.join(sdkRoot, 'api.md');
const check = process.argv.includes('--check');

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function importsOf(source) {
  const map = new Map();
  for (const stmt of source.statements) {
    if (!ts.isImportDeclaration(stmt) || !stmt.importClause?.namedBindings) continue;
    const bindings = stmt.importClause.namedBindings;
    if (!ts.isNamedImports(bindings)) continue;
    const target = path.resolve(path.dirname(source.fileName), `${stmt.moduleSpecifier.text}.ts`);
    for (const el of bindings.elements) map.set(el.name.text, target);
  }
  return map;
}

function findClass(source, name) {
  return source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === name);
}

function jsDoc(node) {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join(' ');
  return text.replace(/\s+/g, ' ').trim();
}

/** The HTTP method and path a method body sends, from `_operation('post', '/x', …)`, `_list('/x', …)`
 * or `request({ method, path })`. */
function endpointOf(method) {
  let found;
  const visit = (node) => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const callee = node.expression.name.text;
      const [a, b] = node.arguments;
      if (callee === '_operation' && a && b && ts.isStringLiteral(a) && ts.isStringLiteral(b)) {
        found = { verb: a.text, path: b.text };
      } else if (callee === '_list' && a && ts.isStringLiteral(a)) {
        found = { verb: 'get', path: a.text };
      } else if (callee === 'request' && a && ts.isObjectLiteralExpression(a)) {
        const prop = (name) => a.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;
        const verb = prop('method');
        const p = prop('path');
        if (verb && p && ts.isStringLiteral(verb) && ts.isStringLiteral(p)) found = { verb: verb.text, path: p.text };
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(method);
  return found;
}

function exportedTypes(source) {
  return source.statements
    .filter((s) => (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    .map((s) => s.name.text);
}

const sections = [];
function walk(file, className, accessor, depth) {
  const source = parse(file);
  const cls = findClass(source, className);
  if (!cls) throw new Error(`class ${className} not found in ${file}`);
  const imports = importsOf(source);
  const rel = path.relative(sdkRoot, file);
  const methods = [];
  const children = [];
  for (const member of cls.members) {
    if (ts.isPropertyDeclaration(member) && member.initializer && ts.isNewExpression(member.initializer)) {
      const childClass = member.initializer.expression.getText();
      const childFile = imports.get(childClass) ?? file;
      if (childFile.includes(`${path.sep}resources${path.sep}`)) {
        children.push([childFile, childClass, `${accessor}.${member.name.getText()}`]);
      }
    }
    if (ts.isMethodDeclaration(member) && !member.name.getText().startsWith('_')) {
      const isPrivate = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
      if (isPrivate) continue;
      const params = member.parameters.map((p) => (p.questionToken || p.initializer ? `${p.name.getText()}?` : p.name.getText()));
      const returns = member.type ? member.type.getText().replace(/\s+/g, ' ') : 'void';
      const doc = jsDoc(member);
      const endpoint = endpointOf(member);
      const operationId = doc.match(/\((\w+)\)\.?$/)?.[1] ?? doc.match(/\((\w+)\)/)?.[1];
      methods.push({ name: member.name.getText(), params, returns, endpoint, operationId, doc });
    }
  }
  if (className !== 'AgentRuns') {
    sections.push({ accessor, className, rel, depth, methods, types: exportedTypes(source) });
  }
  for (const [childFile, childClass, childAccessor] of children) walk(childFile, childClass, childAccessor, depth + 1);
}

walk(path.join(sdkRoot, 'src/client.ts'), 'AgentRuns', 'client', 0);

const lines = [
  '# API reference',
  '',
  '<!-- Generated by `node scripts/api-md.mjs` from the resource classes; do not edit. -->',
  '',
  'Every method takes a last optional `options` argument (`RequestOptions`: `timeout`, `maxRetries`,',
  '`signal`, `headers`, `idempotencyKey`, `query`). Methods returning `APIPromise<T>` also offer',
  '`.withResponse()` and `.asResponse()`; list methods return a `PagePromise<Item>` (await it for a',
  '`CursorPage<Item>`, or `for await` it for every item). Undocumented endpoints:',
  '`client.get/post/put/patch/delete(path, { body, query, ...options })`.',
  '',
];
const covered = new Set();
for (const section of sections) {
  const title = section.accessor.replace(/^client\./, '');
  lines.push(`${'#'.repeat(Math.min(section.depth + 1, 4))} ${title}`, '');
  if (section.types.length > 0) {
    lines.push('Types:', '');
    for (const t of section.types) lines.push(`- <code><a href="./${section.rel}">${t}</a></code>`);
    lines.push('');
  }
  if (section.methods.length > 0) {
    lines.push('Methods:', '');
    for (const m of section.methods) {
      const http = m.endpoint ? `${m.endpoint.verb} ${m.endpoint.path}` : 'client-side helper';
      if (m.operationId) covered.add(m.operationId);
      const op = m.operationId ? ` — \`${m.operationId}\`` : '';
      lines.push(
        `- <code title="${http}">${section.accessor}.<a href="./${section.rel}">${m.name}</a>(${m.params.join(', ')}) -> ${escapeHtml(m.returns)}</code>${op}`,
      );
    }
    lines.push('');
  }
}
const output = lines.join('\n');

const missing = [];
if (existsSync(specPath)) {
  const spec = YAML.parse(readFileSync(specPath, 'utf8'));
  for (const [p, item] of Object.entries(spec.paths ?? {})) {
    for (const [verb, op] of Object.entries(item)) {
      if (!op?.operationId) continue;
      const tags = op.tags ?? [];
      if (tags.includes('Ingress') || tags.includes('Operations')) continue;
      if (Array.isArray(op.security) && op.security.length === 0) continue;
      if (!covered.has(op.operationId)) missing.push(`${op.operationId} (${verb.toUpperCase()} ${p})`);
    }
  }
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

let failed = false;
if (missing.length > 0) {
  console.error(`Operations of openapi/v1.yaml without an SDK method:\n  ${missing.join('\n  ')}`);
  failed = true;
}
if (check) {
  const current = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  if (current !== output) {
    console.error('packages/sdk/api.md is stale; run `node packages/sdk/scripts/api-md.mjs`.');
    failed = true;
  } else {
    console.log('packages/sdk/api.md is up to date.');
  }
} else {
  writeFileSync(outPath, output);
  console.log(`wrote ${path.relative(process.cwd(), outPath)} (${sections.reduce((n, s) => n + s.methods.length, 0)} methods)`);
}
process.exit(failed ? 1 : 0);
