import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.test.ts'],
    // cluster/: `pnpm test:cluster` (its own config), not `pnpm test`.
    exclude: ['node_modules/**', 'cluster/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
