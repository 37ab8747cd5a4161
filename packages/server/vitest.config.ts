import { defineConfig } from 'vitest/config';

// One module graph per worker, not per file (isolate: false): the server's graph took more time to evaluate
// than most files take to run. A test file leaves no process-wide state behind it: every server it starts is
// closed, every spy restored; what src keeps per process is caches (the contract's validator, host probes).
export default defineConfig({
  test: {
    name: 'server',
    isolate: false,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
