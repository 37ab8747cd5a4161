import { defineConfig } from 'tsup';

// The built CLI (docs/decisions.md §A faster, steadier test suite): `pnpm install` builds it (the package's
// `prepare`) into dist/main.js, which bin/agent-runs.mjs runs with plain node — no TypeScript compile at
// each call. The SDK is workspace TypeScript (its `exports` point at src/), so it is bundled in; commander
// and yaml stay external, resolved from node_modules like any dependency.
export default defineConfig({
  entry: ['src/main.ts'],
  outDir: 'dist',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  noExternal: ['@agent-runs/sdk'],
});
