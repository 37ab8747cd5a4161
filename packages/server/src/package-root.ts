/**
 * Where the server's files are at run time, the same whether this code runs from its TypeScript sources
 * (`src/`, through tsx or vitest) or from the compiled bundle (`dist/`, `pnpm build`; docs/decisions.md
 * §Production build). Bundling moves a module's code into another file, so nothing may resolve a path
 * against its own `import.meta.url`; everything resolves from these roots instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const thisFile = fileURLToPath(import.meta.url);

function nearestPackageRoot(from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** packages/server: holds package.json, `skills/`, `src/` and `dist/`. */
export const serverPackageRoot = nearestPackageRoot(thisFile);

/** The checkout the server belongs to: openapi/v1.yaml, packages/dashboard/dist, the default data/. */
export const repositoryRoot = path.resolve(serverPackageRoot, '../..');

/**
 * The tree this code runs from, `src/` or `dist/`. The build mirrors src/ for the files read at run time
 * (db/migrations/, db/wal-checkpoint-worker.cjs), so a path below it holds in both.
 */
export const codeRoot = path.join(serverPackageRoot, path.relative(serverPackageRoot, thisFile).split(path.sep)[0]!);
