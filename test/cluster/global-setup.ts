/** `pnpm test:cluster` runs the compiled server: build it once, before every file (docs/decisions.md §Production build). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  if (!process.env.TEST_POSTGRES_URL) throw new Error('pnpm test:cluster needs TEST_POSTGRES_URL (bash scripts/ci/start-postgres.sh prints one)');
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/server');
  const started = Date.now();
  const build = spawnSync(path.join(serverDir, 'node_modules/.bin/tsup'), [], { cwd: serverDir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}\n${build.stderr}`);
  console.log(`cluster: built packages/server/dist in ${Date.now() - started} ms`);
}
