#!/usr/bin/env node
// `pnpm test:fuzz`: Schemathesis generates requests from openapi/v1.yaml against a real server (RUNNER=command
// with a fixed command that publishes one file and one link, a fresh SQLite file, loopback) and runs every check (`--checks all`); it exits non-zero on any failure.
// Its venv is scripts/schemathesis/.venv (made once). Settings: FUZZ_MAX_TIME (seconds, default 90) for
// the REST operations, FUZZ_SEED (default fixed, so a run repeats); arguments go to the REST run. See
// docs/decisions.md, contract fuzzing.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
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
/** The external reference every run publishes: the fixture of getRunByExternalReferenceURL's `url`. */
const REFERENCE_URL = 'https://issues.example.com/FUZZ-1';
/**
 * What every run executes (generated prompts are never executed): it publishes a file and a link, so the
 * artifact operations are reached with an artifact that exists.
 */
const AGENT_COMMAND = [
  'mkdir -p .artifacts',
  "printf 'fuzz notes\\n' > .artifacts/notes.txt",
  `echo '::artifact::{"artifact_type":"EXTERNAL_REFERENCE","url":"${REFERENCE_URL}","reference_type":"fuzz"}'`,
].join(' && ');

ensureVenv({ venvDir, stamp: SCHEMATHESIS, installArgs: [SCHEMATHESIS] });
// The notification fixture's receiver: it answers 204 and keeps the first event's id (the `eventId` fixture).
let firstEventId;
const receiver = http.createServer((req, res) => {
  firstEventId ??= req.headers['webhook-id'];
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
const server = await startServer({
  // Raised through the setting, not bypassed: every generated request still passes the budget check.
  REST_REQUESTS_PER_MINUTE: '1000000000',
  // Generated environments carry generated setup commands: sandboxed, and without network.
  SANDBOX_NETWORK: 'none',
  RUNNER: 'command',
  AGENT_COMMAND,
  // A price, so that cost limits (`max_cost`, `max_cost_usd_per_month`) are accepted, not refused for want of one.
  MODEL_PRICES: JSON.stringify({ 'fuzz-model': { input_per_mtok: 1, output_per_mtok: 2 } }),
  // Notifications may reach this receiver only (one loopback port), whatever URLs the fuzzer sends.
  NOTIFICATIONS_ALLOWED_HOSTS: `127.0.0.1:${receiver.address().port}`,
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
  const schedule = await call('POST', '/agent/schedules', { name: 'fuzz', cron_schedule: '0 9 * * *', prompt: 'Fuzz schedule' });
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
  const artifactUid = await fixtureArtifact(run.run_id);
  // Valid for ARTIFACT_DOWNLOAD_URL_SECONDS (900 s): longer than a default run; generated tokens get 403.
  const artifactToken = new URL((await call('GET', `/agent/artifacts/${artifactUid}`)).data.download_url).searchParams.get('token');
  // A subscription and one of its events (the run below's creation, delivered to the receiver).
  const subscription = await call('POST', '/notifications/subscriptions', { url: receiverUrl, event_types: ['run.state_changed'] });
  await call('POST', '/agent/runs', { prompt: 'Notification fixture' });
  for (const deadline = Date.now() + 30_000; firstEventId === undefined; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline) throw new Error('the fixture notification never arrived');
  }
  return {
    FUZZ_RUN_ID: run.run_id,
    FUZZ_FACTORY_UID: factory.uid,
    FUZZ_WEBHOOK_UID: webhook.uid,
    FUZZ_DELIVERY_ID: deliveryId,
    FUZZ_AUTOMATION_UID: automation.uid,
    FUZZ_ENVIRONMENT_ID: environment.uid,
    FUZZ_SCHEDULE_ID: schedule.id,
    FUZZ_NAME: name,
    FUZZ_ARTIFACT_UID: artifactUid,
    FUZZ_ARTIFACT_TOKEN: artifactToken,
    FUZZ_REFERENCE_URL: REFERENCE_URL,
    FUZZ_SUBSCRIPTION_UID: subscription.uid,
    FUZZ_EVENT_ID: firstEventId,
  };
}

/** The fixture run's published file, once the run has finished. */
async function fixtureArtifact(runId) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = await call('GET', `/agent/runs/${runId}`);
    if (['SUCCEEDED', 'FAILED', 'ERROR'].includes(run.state)) {
      const file = run.artifacts.find((a) => a.artifact_type === 'FILE');
      if (!file) throw new Error(`the fixture run published no file (${run.state}: ${JSON.stringify(run.status_message)})`);
      return file.data.artifact_uid;
    }
    if (Date.now() > deadline) throw new Error(`the fixture run stayed ${run.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function schemathesis(env, url, selection, seconds) {
  const args = [
    '--config-file',
    path.join(directory, 'schemathesis.toml'),
    'run',
    path.join(repositoryRoot, 'openapi/v1.yaml'),
    '--url',
    url,
    '--header',
    `Authorization: Bearer ${server.adminKey}`,
    '--checks',
    'all',
    '--seed',
    seed,
    '--max-time',
    seconds,
    '--workers',
    '1',
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
  const rest = schemathesis(
    env,
    server.apiUrl,
    [
      // Deleting the fuzzer's own key ends the run's authentication; the ingress has its own tests.
      '--exclude-operation-id',
      'deleteApiKey',
      '--exclude-tag',
      'Ingress',
      '--exclude-tag',
      'Operations',
      // Further options for this run, e.g. `pnpm test:fuzz --report har` or `--phases stateful`.
      ...process.argv.slice(2),
    ],
    maxTime,
  );
  const operational = schemathesis(env, server.baseUrl, ['--include-tag', 'Operations'], OPERATIONAL_MAX_TIME);
  status = rest === 0 && operational === 0 ? 0 : 1;
} finally {
  await server.stop();
  receiver.closeAllConnections();
  receiver.close();
}
process.exit(status);
