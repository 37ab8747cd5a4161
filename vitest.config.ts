import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/server', 'packages/sdk', 'packages/cli', 'packages/dashboard', 'packages/dashboard/vitest.components.config.ts', 'test'],
  },
});
