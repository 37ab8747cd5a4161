// Code samples of every operation of openapi/v1.yaml — curl, the TypeScript SDK, the Python SDK — for the
// reference docs (`x-codeSamples`, added by scripts/docs-build.mjs to the copy it builds from) and for the
// test that runs them (test/contract/code-samples.test.ts). Generated, never hand-written:
// - the request from the contract: path parameters, required query parameters and the JSON body from the
//   operation's own examples, the server (REST root or host root) and whether it takes an API key;
// - the TypeScript call from packages/sdk/api.md (generated from the SDK's resource classes): the method
//   chain, its arguments and what it answers (a page, an event stream, a raw Response);
// - the Python call from the Python SDK's resource methods (`def …` whose docstring names the operationId):
//   the method name, its positional parameters and its keyword parameters.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `$ref`-free view of one object of the contract. */
function resolver(spec) {
  return (node) =>
    node?.$ref
      ? node.$ref
          .split('/')
          .slice(1)
          .reduce((acc, key) => acc[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec)
      : node;
}

function exampleOf(node) {
  if (!node) return undefined;
  if (node.example !== undefined) return node.example;
  if (node.examples && typeof node.examples === 'object') {
    const first = Object.values(node.examples)[0];
    return first && typeof first === 'object' && 'value' in first ? first.value : first;
  }
  return node.schema?.example ?? node.schema?.examples?.[0];
}

/** Every operation with the request its examples make. */
export function operations(spec) {
  const resolve = resolver(spec);
  const out = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const verb of METHODS) {
      const op = item[verb];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolve);
      const pathParams = parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, value: String(exampleOf(p)) }));
      const query = parameters.filter((p) => p.in === 'query' && p.required).map((p) => ({ name: p.name, value: exampleOf(p) }));
      const requestBody = resolve(op.requestBody);
      const json = requestBody?.content?.['application/json'];
      const security = op.security ?? spec.security ?? [];
      const success = Object.keys(op.responses ?? {}).find((status) => /^[23]/.test(status));
      const answer = resolve(op.responses?.[success]);
      out.push({
        operationId: op.operationId,
        verb,
        route,
        pathParams,
        query,
        body: json ? exampleOf(json) : undefined,
        authenticated: security.length > 0,
        // Paths with servers of their own (ingress, probes) live at the host root, not under /api/v1.
        hostRoot: (op.servers ?? item.servers) !== undefined,
        redirect: success === '302',
        stream: answer?.content?.['text/event-stream'] !== undefined,
      });
    }
  }
  return out;
}

const REST_ROOT = '$AGENT_RUNS_BASE_URL';
/** The contract's default host root (its `servers`), for the paths that are not under /api/v1. */
const HOST_ROOT = 'http://localhost:8080';

function filledPath(operation) {
  let filled = operation.route;
  for (const { name, value } of operation.pathParams) filled = filled.replace(`{${name}}`, encodeURIComponent(value));
  const search = new URLSearchParams(operation.query.map(({ name, value }) => [name, String(value)])).toString();
  return search ? `${filled}?${search}` : filled;
}

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlSample(operation) {
  const url = `${operation.hostRoot ? HOST_ROOT : REST_ROOT}${filledPath(operation)}`;
  const flags = [operation.stream ? '-sN' : operation.redirect ? '-sL' : '-s'];
  if (operation.verb !== 'get' && !(operation.verb === 'post' && operation.body !== undefined)) flags.push(`-X ${operation.verb.toUpperCase()}`);
  const lines = [`curl ${flags.join(' ')} "${url}"`];
  if (operation.authenticated) lines.push(`-H "Authorization: Bearer $AGENT_RUNS_API_KEY"`);
  if (operation.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(operation.body, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

/** `client.<chain>.<method>(<args>)` and its answer, per operationId, from packages/sdk/api.md. */
export function typescriptMethods(apiMd) {
  const methods = new Map();
  const pattern = /<code title="[^"]*">client\.([\w.]*?)\.?<a [^>]*>(\w+)<\/a>\(([^)]*)\) -> (\w+)&lt;(\w+)&gt;<\/code> — `(\w+)`/g;
  for (const [, chain, method, args, promise, answer, operationId] of apiMd.matchAll(pattern)) {
    methods.set(operationId, {
      chain: chain ? `${chain}.` : '',
      method,
      args: args
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== 'options?'),
      promise,
      answer,
    });
  }
  return methods;
}

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function typescriptSample(operation, method) {
  const args = method.args.flatMap((arg) => {
    const name = arg.replace(/\?$/, '');
    const param = operation.pathParams.find((p) => camel(p.name) === name || p.name === name);
    if (param) return [JSON.stringify(param.value).replace(/^"|"$/g, "'")];
    const query = operation.query.find((q) => camel(q.name) === name || q.name === name);
    if (query) return [`'${query.value}'`];
    if (name === 'body' && operation.body !== undefined) return [JSON.stringify(operation.body, null, 2)];
    return [];
  });
  const call = `client.${method.chain}${method.method}(${args.join(', ')})`;
  const lines = [`import AgentRuns from '@agent-runs/sdk';`, '', `const client = new AgentRuns(); // reads AGENT_RUNS_API_KEY and AGENT_RUNS_BASE_URL`];
  if (method.promise === 'PagePromise') {
    lines.push(`for await (const item of ${call}) {`, '  console.log(item);', '}');
  } else if (method.promise === 'EventStream') {
    lines.push(`for await (const event of ${call}) {`, '  console.log(event);', '}');
  } else if (method.answer === 'Response') {
    lines.push(`const response = await ${call};`, 'console.log(await response.text());');
  } else if (method.answer === 'void') {
    lines.push(`await ${call};`);
  } else {
    lines.push(`const answer = await ${call};`, 'console.log(answer);');
  }
  return lines.join('\n');
}

/** Name, positional and keyword parameters of every Python resource method, per operationId its docstring names. */
export function pythonMethods(resourcesDir, operationIds) {
  const methods = new Map();
  const files = readdirSync(resourcesDir, { recursive: true }).filter((file) => String(file).endsWith('.py'));
  // A method whose docstring follows its signature at once; the parameters never run into the next `def`.
  const defPattern = /\n {4}def (\w+)\(\s*self,?((?:(?!\n {4}def )[\s\S])*?)\)\s*->[^\n]*:\n\s*"""([\s\S]*?)"""/g;
  for (const file of files) {
    const source = readFileSync(path.join(resourcesDir, String(file)), 'utf8');
    for (const [, name, params, doc] of source.matchAll(defPattern)) {
      const named = [...doc.matchAll(/\((\w+)\b/g)].map((m) => m[1]).find((id) => operationIds.has(id));
      if (!named || methods.has(named)) continue;
      const [positional, keywords = ''] = params.split(/(?:^|,)\s*\*\s*,/);
      const names = (text) =>
        splitTopLevel(text)
          .map((p) => p.split(':')[0].trim())
          .filter(Boolean);
      methods.set(named, { name, positional: names(positional), keywords: names(keywords) });
    }
  }
  return methods;
}

function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if ('[('.includes(char)) depth++;
    if ('])'.includes(char)) depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function pythonLiteral(value, indent = '') {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${pythonLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

function pythonSample(operation, typescript, method) {
  const chain = typescript.chain.split('.').filter(Boolean).map(snake).join('.');
  const args = [];
  // Path and query parameters go where the method takes them: positional, or keyword-only (a parent's id).
  for (const name of method.positional) {
    const param = [...operation.pathParams, ...operation.query].find((p) => snake(p.name) === name);
    if (param) args.push(JSON.stringify(String(param.value)));
  }
  for (const param of [...operation.pathParams, ...operation.query]) {
    if (method.keywords.includes(snake(param.name))) args.push(`${snake(param.name)}=${JSON.stringify(String(param.value))}`);
  }
  if (operation.body && typeof operation.body === 'object' && !Array.isArray(operation.body)) {
    for (const [key, value] of Object.entries(operation.body)) if (method.keywords.includes(key)) args.push(`${key}=${pythonLiteral(value, '    ')}`);
  }
  const call = `client.${chain}${chain ? '.' : ''}${method.name}(${args.length > 0 ? `\n    ${args.join(',\n    ')},\n` : ''})`;
  const lines = ['from agent_runs import AgentRuns', '', 'client = AgentRuns()  # reads AGENT_RUNS_API_KEY and AGENT_RUNS_BASE_URL'];
  if (typescript.promise === 'PagePromise' || typescript.promise === 'EventStream') {
    lines.push(`for item in ${call}:`, '    print(item)');
  } else if (typescript.answer === 'void') {
    lines.push(call);
  } else {
    lines.push(`answer = ${call}`, 'print(answer)');
  }
  return lines.join('\n');
}

/** `x-codeSamples` per operationId: curl always; the SDKs' for every operation they have a method for. */
export function codeSamples(repositoryRoot) {
  const spec = YAML.parse(readFileSync(path.join(repositoryRoot, 'openapi/v1.yaml'), 'utf8'));
  const ops = operations(spec);
  const typescript = typescriptMethods(readFileSync(path.join(repositoryRoot, 'packages/sdk/api.md'), 'utf8'));
  const python = pythonMethods(path.join(repositoryRoot, 'packages/sdk-python/src/agent_runs/resources'), new Set(ops.map((o) => o.operationId)));
  const samples = new Map();
  for (const operation of ops) {
    const list = [{ lang: 'Shell', label: 'curl', source: curlSample(operation) }];
    const ts = typescript.get(operation.operationId);
    if (ts) list.push({ lang: 'TypeScript', label: 'TypeScript SDK', source: typescriptSample(operation, ts) });
    const py = python.get(operation.operationId);
    if (ts && py) list.push({ lang: 'Python', label: 'Python SDK', source: pythonSample(operation, ts, py) });
    samples.set(operation.operationId, list);
  }
  return { spec, samples };
}
