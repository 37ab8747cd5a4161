import { defineConfig } from 'tsup';

// ESM (dist/index.js) and CommonJS (dist/index.cjs) builds with their type declarations
// (dist/index.d.ts, dist/index.d.cts), as package.json's publishConfig points at.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { resolve: ['@agent-runs/contract'] },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  // openapi-fetch stays a runtime dependency; everything else is the SDK's own code. The contract's types and
  // enum values (@agent-runs/contract, an unpublished workspace package) are bundled into the JS and the .d.ts,
  // so the published SDK depends on nothing but openapi-fetch.
  external: ['openapi-fetch'],
  noExternal: ['@agent-runs/contract'],
});
