/**
 * `pnpm test:cluster` (scripts/test-cluster.mjs): several compiled server processes on one PostgreSQL.
 * Not part of `pnpm test` (test/vitest.config.ts excludes this directory). One file at a time — each starts
 * its own processes on this machine's CPUs — and postgres-restart.test.ts last, since it restarts the
 * database server every other file uses.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

class RestartLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const isRestart = (file: TestSpecification) => file.moduleId.endsWith('postgres-restart.test.ts');
    const sorted = [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    return [...sorted.filter((file) => !isRestart(file)), ...sorted.filter(isRestart)];
  }
}

export default defineConfig({
  test: {
    name: 'cluster',
    root: import.meta.dirname,
    include: ['*.test.ts'],
    globalSetup: ['global-setup.ts'],
    fileParallelism: false,
    sequence: { sequencer: RestartLast },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
