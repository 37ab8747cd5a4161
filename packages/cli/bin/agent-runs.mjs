#!/usr/bin/env node
// The installed `agent-runs` command: the built CLI (dist/main.js, made by `pnpm install` through the
// package's `prepare`, or `pnpm --filter @agent-runs/cli build`), run with plain node.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('agent-runs: packages/cli/dist is not built: run `pnpm install` (or `pnpm --filter @agent-runs/cli build`).\n');
  process.exit(1);
}
// Stack traces (AGENT_RUNS_DEBUG) then name the TypeScript sources.
process.setSourceMapsEnabled(true);
const { main, processIo } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), processIo());
