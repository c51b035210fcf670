import { defineConfig } from 'vitest/config';

// One DynamoDB Local, one S3 emulator and one local runner are started for the whole run
// (test/support/global-setup.ts); test files share them and isolate by using fresh ids.
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
