#!/usr/bin/env node
// Runs the Python SDK's pytest suite in its virtualenv, with the mock (`pnpm mock`, AGENT_RUNS_MOCK_URL) and a
// real server (AGENT_RUNS_E2E_BASE_URL, AGENT_RUNS_E2E_API_KEY) started on loopback for it.
import { spawnSync } from 'node:child_process';
import { ensurePythonEnv, pythonPackageDir } from './python-env.mjs';
import { startMock, startServer } from './lib/services.mjs';

const python = ensurePythonEnv();
const mock = await startMock();
// Notifications reach the tests' receivers on loopback only where the operator lists it.
const server = await startServer({ NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' });
let status = 1;
try {
  const result = spawnSync(python, ['-m', 'pytest', '-q', ...process.argv.slice(2)], {
    cwd: pythonPackageDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      // The mock's REST root (/api/v1), as integrators use it.
      AGENT_RUNS_MOCK_URL: mock.apiUrl,
      AGENT_RUNS_E2E_BASE_URL: server.apiUrl,
      AGENT_RUNS_E2E_INGRESS_URL: server.baseUrl,
      AGENT_RUNS_E2E_API_KEY: server.adminKey,
    },
  });
  status = result.status ?? 1;
} finally {
  await Promise.all([mock.stop(), server.stop()]);
}
process.exit(status);
