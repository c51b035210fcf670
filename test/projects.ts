// Which project a test file runs in, by what it needs (docs/testing.md). A file in no list is an
// `http` test: it gets everything (DynamoDB Local, the S3 emulator and the local runner), so a new
// test always has what it may need; move it to a faster project when it needs less.

/** No Java, no network: the domain, the in-memory adapters, architecture rules, docs, template checks. */
export const UNIT = [
  'test/unit/**/*.test.ts',
  'test/contract/*.memory.test.ts',
  'test/architecture/dependency-rules.test.ts',
  'test/architecture/line-width.test.ts',
  'test/docs/**/*.test.ts',
  'test/bank/openapi.test.ts',
  'test/bank/totp.test.ts',
  'test/bench/billing.test.ts',
  'test/bench/data-path.test.ts',
  'test/bench/floors.test.ts',
  'test/bench/live-coldstart.test.ts',
  'test/foundation/crash-isolation.test.ts',
  'test/foundation/local-sqs.test.ts',
  'test/foundation/openapi.test.ts',
  'test/foundation/queue-poller.test.ts',
  'test/foundation/reload.test.ts',
  'test/foundation/runner-format.test.ts',
  'test/foundation/stream-mapping.test.ts',
  'test/foundation/template.test.ts',
  'test/news/unit.test.ts',
  'test/notes/revisions-openapi.test.ts',
];

/** DynamoDB Local and the S3 emulator, no runner: the stores' contracts and the stream plumbing. */
export const DYNAMO = [
  'test/contract/*.dynamo.test.ts',
  'test/bench/biller.test.ts',
  'test/foundation/stream-poller.test.ts',
];

/** Minutes, or a browser, or a process of their own: faults, fuzzing, deploy checks, Chromium, builds. */
export const SLOW = [
  'test/deploy/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/**/*-browser.test.ts',
  'test/foundation/docs-page.test.ts',
  'test/foundation/quiet-run.test.ts',
  'test/foundation/orphans.test.ts',
  'test/foundation/local-stack.test.ts',
  'test/architecture/bundled-clients.test.ts',
  'test/bench/coldstart.test.ts',
  'test/bank/passkeys.test.ts',
];
