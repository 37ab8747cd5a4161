#!/usr/bin/env node
// `pnpm test:fuzz`: Schemathesis generates requests from openapi/v1.yaml against a real server (RUNNER=echo,
// a fresh SQLite file, loopback) and runs every check (`--checks all`); it exits non-zero on any failure.
// Its venv is scripts/schemathesis/.venv (made once). Settings: FUZZ_MAX_TIME (seconds, default 90) for
// the REST operations, FUZZ_SEED (default fixed, so a run repeats); arguments go to the REST run. See
// docs/decisions.md, contract fuzzing.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureVenv, repositoryRoot } from './python-env.mjs';
import { startServer } from './lib/services.mjs';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const directory = path.join(repositoryRoot, 'scripts/schemathesis');
const venvDir = path.join(directory, '.venv');
const maxTime = process.env.FUZZ_MAX_TIME ?? '90';
const seed = process.env.FUZZ_SEED ?? '20261124';
/** The operational endpoints (/healthz, /readyz, /metrics) are at the host root: a second, short run. */
const OPERATIONAL_MAX_TIME = '10';

ensureVenv({ venvDir, stamp: SCHEMATHESIS, installArgs: [SCHEMATHESIS] });
const server = await startServer({
  // Raised through the setting, not bypassed: every generated request still passes the budget check.
  REST_REQUESTS_PER_MINUTE: '1000000000',
  // Generated environments carry generated setup commands: sandboxed, and without network.
  SANDBOX_NETWORK: 'none',
});

/** One REST call of the fixture set-up; throws on anything but 2xx. */
async function call(method, route, body) {
  const response = await fetch(`${server.apiUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** One resource of each kind, so that operations on an existing resource are reached too. */
async function createFixtures() {
  const name = 'FUZZ_NOTES';
  const factory = await call('POST', '/factories', { name: 'fuzz' });
  const webhook = await call('POST', `/factories/${factory.uid}/webhooks`, { name: 'fuzz', auth_mode: 'url_token' });
  const automation = await call('POST', `/factories/${factory.uid}/automations`, {
    name: 'fuzz',
    prompt: 'Summarise the delivery.',
    triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.uid] } }],
  });
  const environment = await call('POST', '/agent/environments', { name: 'fuzz' });
  await call('PUT', `/secrets/${name}`, { value: 'fuzz-secret-value' });
  const run = await call('POST', '/agent/runs', {
    prompt: 'Fuzz fixture',
    attachments: [{ file_name: name, mime_type: 'text/plain', data: Buffer.from('notes').toString('base64') }],
  });
  // The ingress URL names PUBLIC_INGRESS_URL's host; the delivery goes to this server on loopback.
  const ingress = new URL(webhook.ingress_url);
  const delivered = await fetch(`${server.baseUrl}${ingress.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'opened' }),
  });
  const { delivery_id: deliveryId } = await delivered.json();
  if (!deliveryId) throw new Error(`the fixture delivery was not accepted (${delivered.status})`);
  return {
    FUZZ_RUN_ID: run.run_id,
    FUZZ_FACTORY_UID: factory.uid,
    FUZZ_WEBHOOK_UID: webhook.uid,
    FUZZ_DELIVERY_ID: deliveryId,
    FUZZ_AUTOMATION_UID: automation.uid,
    FUZZ_ENVIRONMENT_ID: environment.uid,
    FUZZ_NAME: name,
  };
}

function schemathesis(env, url, selection, seconds) {
  const args = [
    '--config-file', path.join(directory, 'schemathesis.toml'),
    'run', path.join(repositoryRoot, 'openapi/v1.yaml'),
    '--url', url,
    '--header', `Authorization: Bearer ${server.adminKey}`,
    '--checks', 'all',
    '--seed', seed,
    '--max-time', seconds,
    '--workers', '1',
    ...selection,
  ];
  console.log(`schemathesis run … --url ${url} ${selection.join(' ')} --max-time ${seconds} --seed ${seed}`);
  const result = spawnSync(path.join(venvDir, 'bin', 'schemathesis'), args, {
    stdio: 'inherit',
    env: { ...process.env, ...env, SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: directory },
  });
  return result.status ?? 1;
}

let status = 1;
try {
  const env = await createFixtures();
  const rest = schemathesis(env, server.apiUrl, [
    // Deleting the fuzzer's own key ends the run's authentication; the ingress has its own tests.
    '--exclude-operation-id', 'deleteApiKey',
    '--exclude-tag', 'Ingress',
    '--exclude-tag', 'Operations',
    // Further options for this run, e.g. `pnpm test:fuzz --report har` or `--phases stateful`.
    ...process.argv.slice(2),
  ], maxTime);
  const operational = schemathesis(env, server.baseUrl, ['--include-tag', 'Operations'], OPERATIONAL_MAX_TIME);
  status = rest === 0 && operational === 0 ? 0 : 1;
} finally {
  await server.stop();
}
process.exit(status);
