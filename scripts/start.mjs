#!/usr/bin/env node
// `pnpm start`: compiles the server (packages/server → its dist/, `pnpm build`) and builds the dashboard
// (packages/dashboard → its dist/, which the server serves at /) when a build is missing or older than its
// sources, then runs the compiled server as `node packages/server/dist/main.js`, forwarding signals and its
// exit code. No dependencies: plain Node.
//
// The server stays in the process group `pnpm start` was started in, so whatever stops that group (a
// supervisor, `timeout`, a test harness, `kill -9 -<pgid>`) stops the server too. A signal sent to the group
// reaches the server itself; one sent to this process alone is passed on as a stop request over the IPC
// channel (not as a second signal, which would end the server without a graceful shutdown —
// packages/server/src/main.ts), and the channel closing, even when this process is killed outright, is one too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'packages/server');
const serverEntry = path.join(serverDir, 'dist/main.js');
const dashboardDir = path.join(root, 'packages/dashboard');

/** The newest modification time (ms) of a file or of any file under a directory; 0 when it does not exist. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

/**
 * Runs `tool` (a binary of the package's node_modules/.bin) in `dir` when `output` is missing or older than
 * any of `sources` (paths relative to `dir`). Returns false when a build is due but the tool is not
 * installed; exits with the build's status when it fails.
 */
function buildIfStale({ name, dir, output, sources, tool, args, failureHint = '' }) {
  const builtAt = newestMtime(output);
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(dir, source))));
  if (builtAt > 0 && builtAt >= changedAt) return true;
  const bin = path.join(dir, 'node_modules/.bin', tool);
  if (!existsSync(bin)) return false;
  console.error(builtAt === 0 ? `start: building the ${name} (first start)…` : `start: the ${name} changed since its last build; rebuilding…`);
  const build = spawnSync(bin, args, { cwd: dir, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`start: the ${name} build failed (see above).${failureHint}`);
    process.exit(build.status ?? 1);
  }
  return true;
}

const serverBuilt = buildIfStale({
  name: 'server',
  dir: serverDir,
  output: serverEntry,
  sources: ['src', 'tsup.config.ts', 'package.json'],
  tool: 'tsup',
  args: [],
});
if (!serverBuilt) {
  if (!existsSync(serverEntry)) {
    console.error('start: the server needs a build but its dependencies are not installed: run `pnpm install`.');
    process.exit(1);
  }
  console.error('start: the server changed since its last build but tsup is not installed (`pnpm install`); starting the last build.');
}

if (process.env.DASHBOARD_DIR) {
  // The server serves another build of the dashboard: the one in the repository is not used.
} else if (!existsSync(path.join(dashboardDir, 'package.json'))) {
  console.error('start: packages/dashboard does not exist; skipping the dashboard build (the server answers / with 503).');
} else {
  const dashboardBuilt = buildIfStale({
    name: 'dashboard',
    dir: dashboardDir,
    output: path.join(dashboardDir, 'dist/index.html'),
    // What the build is made from; `public/` is copied into it as is.
    sources: ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'],
    tool: 'vite',
    args: ['build'],
    failureHint: ' Fix it, or run the server alone with `node packages/server/dist/main.js`.',
  });
  if (!dashboardBuilt) {
    console.error('start: the dashboard needs a build but its dependencies are not installed (run `pnpm install`); starting without it.');
  }
}

const server = spawn(process.execPath, ['--enable-source-maps', serverEntry, ...process.argv.slice(2)], {
  cwd: root,
  // The server reads nothing from the terminal; the IPC channel carries stop requests from here.
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

const requestStop = () => {
  if (server.connected) server.disconnect();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, requestStop);
server.on('error', (err) => {
  console.error(`start: could not run the server: ${err.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  // Ended by a signal: end the same way, so whoever started `pnpm start` sees it.
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
