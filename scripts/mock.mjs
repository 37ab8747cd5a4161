#!/usr/bin/env node
// Prism mock of openapi/v1.yaml for integrators: `pnpm mock` serves the contract's examples on
// http://127.0.0.1:4010/api/v1 (PORT/HOST override; extra arguments go to `prism mock`).
//
// Prism serves every path at its root and answers a request that breaks the contract with 422 (or 400)
// and the contract's example body. A small proxy in front of it makes the mock answer like the server:
// the REST API under /api/v1 (the ingress and /healthz, /readyz, /metrics at the root, as the contract's
// `servers` say; REST paths at the root still work), and contract violations as the server's
// 400 invalid_request problem (packages/server/src/http/problem.ts), Prism's `sl-violations` header kept.
//
// Output: one line at start and one per request (`GET /api/v1/agent/runs 200 4 ms`, a refused request with
// what was wrong). Prism's own log — every route at start, six lines per request — is at `-v fatal`
// (`pnpm mock -v info` brings it back).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import YAML from 'yaml';
import { freePort } from './lib/services.mjs';
import { repositoryRoot } from './python-env.mjs';

const REST_BASE_PATH = '/api/v1';
/** The REST root the contract's examples use (its default `servers` entry). */
const CONTRACT_SERVER = 'http://localhost:8080/api/v1';
const PROBLEM_TYPE_BASE = 'https://agent-runs.dev/errors/';
const TITLES = {
  invalid_request: 'Invalid request',
  resource_not_found: 'Resource not found',
  method_not_allowed: 'Method not allowed',
};

const specPath = path.join(repositoryRoot, 'openapi/v1.yaml');
const port = Number(process.env.PORT ?? '4010');
const host = process.env.HOST ?? '127.0.0.1';

/** Paths that declare their own `servers` live at the host root, not under /api/v1 (as in validator.ts). */
function rootOnlyPatterns() {
  const spec = YAML.parse(readFileSync(specPath, 'utf8'));
  return Object.entries(spec.paths ?? {})
    .filter(([, item]) => item.servers !== undefined)
    .map(([route]) => new RegExp(`^${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`));
}

function problem(code, status, detail, instance, traceId, errors) {
  const title = TITLES[code];
  const body = { type: PROBLEM_TYPE_BASE + code, title, status, detail, instance, error: `${title}: ${detail}`, retryable: false, trace_id: traceId };
  if (errors) body.errors = errors;
  return body;
}

/** One Prism violation as the server's `errors[]` entry: `$.config.max_turns`, `query.limit`, `path.runId`. */
function serverError(violation) {
  const [, where, ...rest] = violation.location ?? [];
  const lead = `Request ${where} ${rest.length ? `${where === 'body' ? 'property' : 'parameter'} ${rest.join('.')} ` : ''}`;
  const message = violation.message.startsWith(lead) ? violation.message.slice(lead.length) : violation.message;
  const missing = violation.code === 'required' ? /required property '([^']+)'/.exec(message)?.[1] : undefined;
  const segments = missing ? [...rest, missing] : rest;
  const join = (root) => segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : `${acc}.${s}`), root);
  const roots = { body: '$', query: 'query', path: 'path', header: 'header' };
  return { path: where in roots ? join(roots[where]) : '$', message };
}

/** The server's answer for an error Prism gave, or undefined to pass Prism's on unchanged. */
function asServerProblem(status, headers, text, instance) {
  const traceId = String(headers['x-request-id'] ?? `req_${randomUUID()}`);
  let violations = [];
  try {
    violations = JSON.parse(String(headers['sl-violations'] ?? '[]')).filter((v) => v.location?.[0] === 'request');
  } catch {
    // not Prism's header format: keep the answer
  }
  if ((status === 400 || status === 422) && violations.length > 0) {
    if (violations.some((v) => v.code === 415)) {
      const errors = violations.map((v) => ({ path: '$', message: v.message }));
      return problem('invalid_request', 400, 'Send the request body as application/json.', instance, traceId, errors);
    }
    const errors = violations.map(serverError);
    const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    return problem('invalid_request', 400, `The request is invalid: ${summary}.`, instance, traceId, errors);
  }
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (status === 400 && body?.error?.code === 'invalid_json') {
    return problem('invalid_request', 400, 'The request body is not valid JSON.', instance, traceId);
  }
  if (status === 404 && String(body?.type).endsWith('#NO_PATH_MATCHED_ERROR')) {
    return problem('resource_not_found', 404, 'No such endpoint.', instance, traceId);
  }
  if (status === 405 && String(body?.type).endsWith('#NO_METHOD_MATCHED_ERROR')) {
    return problem('method_not_allowed', 405, 'This method is not allowed on this path.', instance, traceId);
  }
  return undefined;
}

/** The one line a request leaves on stdout, once its answer is over (an event stream's when it closes). */
function logRequest(req, res, started) {
  const problem = res.problemDetail ? ` ${res.problemDetail}` : '';
  const ms = Math.round(performance.now() - started);
  console.log(`${req.method} ${req.url} ${res.headersSent ? res.statusCode : '-'} ${ms} ms${problem}`);
}

function send(res, status, headers, body) {
  res.problemDetail = body.detail;
  const text = JSON.stringify(body);
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(content-type|content-length|x-should-retry|transfer-encoding)$/i.test(name)));
  res.writeHead(status, {
    ...kept,
    'x-request-id': body.trace_id,
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function startProxy(prismPort) {
  const rootOnly = rootOnlyPatterns();
  return http.createServer((req, res) => {
    const started = performance.now();
    res.on('close', () => logRequest(req, res, started));
    const url = new URL(req.url ?? '/', 'http://mock');
    const instance = url.pathname;
    let forwardPath = url.pathname;
    if (url.pathname === REST_BASE_PATH || url.pathname.startsWith(`${REST_BASE_PATH}/`)) {
      forwardPath = url.pathname.slice(REST_BASE_PATH.length) || '/';
      if (rootOnly.some((pattern) => pattern.test(forwardPath))) {
        send(res, 404, {}, problem('resource_not_found', 404, 'No such endpoint.', instance, `req_${randomUUID()}`));
        req.resume();
        return;
      }
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: prismPort, method: req.method, path: forwardPath + url.search, headers: { ...req.headers, host: `127.0.0.1:${prismPort}` } },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (status < 400) {
          // A redirect to the contract's example server (getRunTranscript's Location) leads back to this mock,
          // as the server's own redirects lead to itself.
          const location = answer.headers.location;
          if (location?.startsWith(CONTRACT_SERVER)) {
            res.writeHead(status, {
              ...answer.headers,
              location: `http://${req.headers.host ?? `${host}:${port}`}${REST_BASE_PATH}${location.slice(CONTRACT_SERVER.length)}`,
            });
            answer.pipe(res);
            return;
          }
          // Streams (the events endpoint) pass straight through.
          res.writeHead(status, answer.rawHeaders);
          answer.pipe(res);
          return;
        }
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks);
          const replacement = asServerProblem(status, answer.headers, text.toString('utf8'), instance);
          if (replacement) {
            send(res, replacement.status, answer.headers, replacement);
          } else {
            res.writeHead(status, answer.rawHeaders);
            res.end(text);
          }
        });
      },
    );
    // A client that goes away (an SSE reader that stops) releases Prism's side too.
    res.on('close', () => upstream.destroy());
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`mock: Prism is not answering (${error.message})\n`);
    });
    req.pipe(upstream);
  });
}

async function waitForPrism(prismPort, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${prismPort}/healthz`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error('prism did not start in 60 s');
}

const prismPort = await freePort();
const extraArgs = process.argv.slice(2);
const quiet = extraArgs.some((arg) => /^(-v|--verboseLevel)(=|$)/.test(arg)) ? [] : ['-v', 'fatal'];
const prism = spawn(
  path.join(repositoryRoot, 'node_modules/.bin/prism'),
  ['mock', specPath, '-p', String(prismPort), '-h', '127.0.0.1', ...quiet, ...extraArgs],
  { stdio: ['ignore', quiet.length > 0 ? 'pipe' : 'inherit', 'inherit'] },
);
// Prism prints its "Starting Prism…" line (and blank padding after it) at any level; the start line below says more.
let partialLine = '';
prism.stdout?.on('data', (chunk) => {
  const lines = (partialLine + chunk.toString('utf8')).split('\n');
  partialLine = lines.pop() ?? '';
  for (const line of lines) if (line.trim() !== '' && !/awaiting\s+Starting Prism/.test(line)) console.log(line);
});
prism.on('exit', (code) => process.exit(code ?? 0));
// Prism goes down with the proxy (a port already taken, Ctrl-C, the test helpers' SIGTERM).
const stop = (signal = 'SIGTERM') => {
  prism.kill(signal);
  setTimeout(() => process.exit(1), 2000).unref();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
try {
  await waitForPrism(prismPort, prism);
  const proxy = startProxy(prismPort);
  proxy.on('error', (error) => {
    console.error(`mock: ${error.message}`);
    stop();
  });
  proxy.listen(port, host, () => {
    console.log(`mock: the REST API on http://${host}:${port}${REST_BASE_PATH} (webhook ingress and /healthz at the root)`);
  });
} catch (error) {
  console.error(`mock: ${error.message}`);
  stop();
}
