#!/usr/bin/env node
// Prism mock of openapi/v1.yaml for integrators: `pnpm mock` serves the contract's examples on
// http://127.0.0.1:4010 (PORT/HOST override) and rejects requests that break the contract.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from './python-env.mjs';

const port = process.env.PORT ?? '4010';
const host = process.env.HOST ?? '127.0.0.1';
const prism = path.join(repositoryRoot, 'node_modules/.bin/prism');
const child = spawn(prism, ['mock', path.join(repositoryRoot, 'openapi/v1.yaml'), '-p', port, '-h', host, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
