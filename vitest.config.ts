import { defineConfig } from 'vitest/config';
import { wasmBinary } from './test/support/wasm-binary.ts';

// One DynamoDB Local, one S3 emulator and one local runner are started for the whole run
// (test/support/global-setup.ts); test files share them and isolate by using fresh ids.
// A quiet run: a test's console output, and the functions' logs of its time, are shown only when it
// fails (silent: 'passed-only', test/support/function-logs.ts); TRI_API_TEST_SHOW_LOGS=1 shows all.
// Deadlines are sized for a 2-core machine that is busy with other work (load average 6-13):
// a function's first call there builds and loads its bundle in seconds, not milliseconds.
export default defineConfig({
  plugins: [wasmBinary()],
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/function-logs.ts'],
    silent: process.env.TRI_API_TEST_SHOW_LOGS ? false : 'passed-only',
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**', 'node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
