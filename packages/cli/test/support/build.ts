import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest globalSetup: builds dist/ (tsup, about a second) so that bin.test.ts runs the bin on the
 * sources under test, not on whatever `pnpm install` built last.
 */
export default function buildCli(): void {
  const cliDir = fileURLToPath(new URL('../..', import.meta.url));
  const build = spawnSync(fileURLToPath(new URL('../../node_modules/.bin/tsup', import.meta.url)), ['--silent'], {
    cwd: cliDir,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`the CLI build failed:\n${build.stdout}${build.stderr}`);
}
