import { defineConfig } from 'vitest/config';

// Four workers on this 2-CPU machine: most test time is spent waiting on servers, sandboxes, browsers and
// child processes, not computing (docs/decisions.md §A faster, steadier test suite).
export default defineConfig({
  test: {
    maxWorkers: 4,
    projects: ['packages/server', 'packages/sdk', 'packages/cli', 'packages/dashboard', 'packages/dashboard/vitest.components.config.ts', 'test'],
  },
});
