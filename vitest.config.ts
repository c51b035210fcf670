import { defineConfig } from 'vitest/config';
import { DYNAMO, SLOW, UNIT } from './test/projects.ts';
import { wasmBinary } from './test/support/wasm-binary.ts';

// Four projects by what a test needs (test/projects.ts, docs/testing.md): `unit` (no Java, no
// network), `dynamo` (DynamoDB Local and the S3 emulator), `http` (those and the local runner),
// `slow` (browsers, faults, fuzzing, deploy checks, builds). `npm test` runs them all; the
// services are started once for every project that needs them (test/support/services.ts).
// A quiet run: a test's console output, and the functions' logs of its time, are shown only when it
// fails (silent: 'passed-only', test/support/function-logs.ts); TRI_API_TEST_SHOW_LOGS=1 shows all.
// Deadlines are sized for a 2-core machine that is busy with other work (load average 6-13):
// a function's first call there builds and loads its bundle in seconds, not milliseconds.
const silent = process.env.TRI_API_TEST_SHOW_LOGS ? false : ('passed-only' as const);
const base = {
  silent,
  exclude: ['test/fixtures/**', 'node_modules/**'],
  testTimeout: 120_000,
  hookTimeout: 300_000,
  teardownTimeout: 60_000,
  maxWorkers: 2,
};
/** A unit test that reaches for AWS meets a closed loopback port (never the network). */
const NOWHERE = 'http://127.0.0.1:9';

export default defineConfig({
  plugins: [wasmBinary()],
  test: {
    ...base,
    projects: [
      {
        plugins: [wasmBinary()],
        test: {
          ...base,
          name: 'unit',
          include: UNIT,
          pool: 'forks',
          env: {
            AWS_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'unit',
            AWS_SECRET_ACCESS_KEY: 'unit',
            AWS_ENDPOINT_URL: NOWHERE,
            AWS_ENDPOINT_URL_DYNAMODB: NOWHERE,
            AWS_ENDPOINT_URL_S3: NOWHERE,
            DYNAMODB_TIMEOUT_MS: '500',
          },
        },
      },
      {
        plugins: [wasmBinary()],
        test: {
          ...base,
          name: 'dynamo',
          include: DYNAMO,
          pool: 'forks',
          globalSetup: ['test/support/setup-dynamo.ts'],
          setupFiles: ['test/support/function-logs.ts'],
        },
      },
      {
        plugins: [wasmBinary()],
        test: {
          ...base,
          name: 'http',
          include: ['test/**/*.test.ts'],
          exclude: [...base.exclude, ...UNIT, ...DYNAMO, ...SLOW],
          pool: 'forks',
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/function-logs.ts'],
        },
      },
      {
        plugins: [wasmBinary()],
        test: {
          ...base,
          name: 'slow',
          include: SLOW,
          pool: 'forks',
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/function-logs.ts'],
        },
      },
    ],
  },
});
