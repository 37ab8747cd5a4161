import { defineConfig } from 'vitest/config';

// Browser tests: the real server (SQLite, echo runner) serving the built dashboard, driven through
// Chromium by playwright-core. Files run beside the other projects' (a browser mostly waits on the server).
export default defineConfig({
  test: {
    name: 'dashboard',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
