import { defineConfig } from 'vitest/config';

// Component tests: the dashboard's modules and pages in happy-dom against a request mock of the REST API
// (src/testing/mock-api.ts). The browser suite (vitest.config.ts) stays the end-to-end check.
export default defineConfig({
  test: {
    name: 'dashboard-components',
    include: ['src/**/*.test.tsx'],
    environment: 'happy-dom',
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // Above waitFor's 5 s deadline (src/testing/render.tsx), so a failure shows what was awaited.
    testTimeout: 15_000,
  },
});
