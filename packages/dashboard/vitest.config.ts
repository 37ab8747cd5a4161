import { defineConfig } from 'vitest/config';

// Browser tests: the real server (SQLite, echo runner) serving the built dashboard, driven through
// Chromium by playwright-core. One file at a time: each starts a browser, and this machine has two CPUs.
export default defineConfig({
  test: {
    name: 'dashboard',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
