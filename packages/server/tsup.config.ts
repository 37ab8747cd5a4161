import fs from 'node:fs/promises';
import { defineConfig } from 'tsup';

// The compiled server (docs/decisions.md §Production build): `pnpm build` → dist/, which `pnpm start` and
// bin/agent-runs-server.mjs run with plain node.
//
// - Each command is an entry nothing else imports, so its code stays in its own file and its "run when
//   executed directly" check (`import.meta.url` against argv[1]) holds for `node dist/main.js` as for tsx.
// - Migrations are entries of their own under dist/db/migrations/, mirroring src/: the migrator reads that
//   folder at run time (src/db/migrate.ts, src/package-root.ts).
// - Every dependency stays external (tsup's default for package.json `dependencies`): better-sqlite3 and
//   pg are native or load drivers at run time, and the rest resolves from node_modules just as under tsx.
//   The exception is @agent-runs/contract: a workspace package of TypeScript source, bundled in.
export default defineConfig({
  entry: ['src/main.ts', 'src/admin.ts', 'src/migrate.ts', 'src/db/migrations/*.ts'],
  outDir: 'dist',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  clean: true,
  noExternal: ['@agent-runs/contract'],
  // The checkpoint thread's script is plain CommonJS that a Worker loads by path.
  onSuccess: async () => {
    await fs.copyFile('src/db/wal-checkpoint-worker.cjs', 'dist/db/wal-checkpoint-worker.cjs');
  },
});
