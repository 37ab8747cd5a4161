#!/usr/bin/env node
// `pnpm start`: builds the dashboard (packages/dashboard → its dist/, which the server serves at /) when the
// build is missing or older than its sources, then runs the server as `tsx packages/server/src/main.ts`,
// forwarding signals and its exit code. No dependencies: plain Node.
//
// The server runs in its own process group and gets each signal from here exactly once: a Ctrl-C that
// reached it from the terminal as well would count as a second signal, which ends it without a graceful
// shutdown (packages/server/src/main.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dashboardDir = path.join(root, 'packages/dashboard');
const builtIndex = path.join(dashboardDir, 'dist/index.html');
/** What the build is made from; `public/` is copied into it as is. */
const dashboardSources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => path.join(dashboardDir, p));

/** The newest modification time (ms) of a file or of any file under a directory; 0 when it does not exist. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

function buildDashboardIfStale() {
  if (!existsSync(path.join(dashboardDir, 'package.json'))) {
    console.error('start: packages/dashboard does not exist; skipping the dashboard build (the server answers / with 503).');
    return;
  }
  const builtAt = newestMtime(builtIndex);
  const changedAt = Math.max(...dashboardSources.map(newestMtime));
  if (builtAt > 0 && builtAt >= changedAt) return;
  const vite = path.join(dashboardDir, 'node_modules/.bin/vite');
  if (!existsSync(vite)) {
    console.error('start: the dashboard needs a build but its dependencies are not installed (run `pnpm install`); starting without it.');
    return;
  }
  console.error(builtAt === 0 ? 'start: building the dashboard (first start)…' : 'start: the dashboard changed since its last build; rebuilding…');
  const build = spawnSync(vite, ['build'], { cwd: dashboardDir, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('start: the dashboard build failed (see above). Fix it, or run the server alone with `pnpm exec tsx packages/server/src/main.ts`.');
    process.exit(build.status ?? 1);
  }
}

buildDashboardIfStale();

const server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['packages/server/src/main.ts', ...process.argv.slice(2)], {
  cwd: root,
  // The server reads nothing from the terminal; in its own process group it could not anyway.
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true,
});

const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const forward = (signal) => {
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
for (const signal of forwarded) process.on(signal, forward);
server.on('error', (err) => {
  console.error(`start: could not run the server: ${err.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  if (signal) {
    // Ended by a signal: end the same way, so whoever started `pnpm start` sees it.
    for (const name of forwarded) process.off(name, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
