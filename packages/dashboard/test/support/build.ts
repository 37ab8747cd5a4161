/**
 * Builds the dashboard exactly as `pnpm build:dashboard` does, into a directory of the caller's choosing:
 * a child `vite build` with NODE_ENV=production (vitest's own NODE_ENV=test would otherwise select React's
 * development build and JSX runtime).
 *
 * As the browser tests' vitest global setup it builds once per test run into a fresh directory under
 * test-results/ (so concurrent runs never serve each other's half-written build) and hands the path to the
 * tests (`inject('dashboardDir')`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export const dashboardRoot = fileURLToPath(new URL('../..', import.meta.url));

export function buildDashboard(outDir: string): void {
  const viteBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [viteBin, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: dashboardRoot,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dashboardDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const parent = path.join(dashboardRoot, 'test-results');
  mkdirSync(parent, { recursive: true });
  const outDir = mkdtempSync(path.join(parent, 'dist-'));
  buildDashboard(outDir);
  project.provide('dashboardDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
