/** `pnpm test:cluster` runs the compiled server: build it once, before every file (docs/decisions.md §Production build). */
import { buildServer } from '../../packages/server/bench/cluster-processes';

export default function setup(): void {
  if (!process.env.TEST_POSTGRES_URL) throw new Error('pnpm test:cluster needs TEST_POSTGRES_URL (bash scripts/ci/start-postgres.sh prints one)');
  console.log(`cluster: built packages/server/dist in ${buildServer()} ms`);
}
