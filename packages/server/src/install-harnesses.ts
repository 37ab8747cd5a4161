/**
 * `pnpm harnesses:install [codex claude …]`: installs the pinned npm packages of the harness CLIs under
 * HARNESSES_DIR (default DATA_DIR/harnesses), all of them when none is named; prints
 * {"harnesses": [{type, package, version, directory, status}]}. Errors go to stderr with exit status 1.
 */
import { pathToFileURL } from 'node:url';
import { adaptersNamed, installHarness, type InstallResult } from './engine/harnesses/install';
import { loadSettings } from './settings';

async function run(types: string[]): Promise<void> {
  const settings = loadSettings();
  const harnesses: InstallResult[] = [];
  for (const adapter of adaptersNamed(types)) harnesses.push(await installHarness(settings.harnessesDir, adapter, process.env.NPM ?? 'npm'));
  process.stdout.write(JSON.stringify({ harnesses }) + '\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`harnesses:install failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
