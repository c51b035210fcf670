// The `http` and `slow` projects' global setup (docs/testing.md): AWS's DynamoDB Local (in memory)
// and the S3 emulator, the table and bucket from template.yaml (shared with the `dynamo` project,
// services.ts), and the local runner on a free port. Test workers inherit the environment,
// so event-payload tests call handlers against the same real DynamoDB and S3, and HTTP tests use
// TEST_BASE_URL. Set TEST_BASE_URL yourself to run the HTTP suites against a deployed stack.
// Whatever has started is stopped again if a later step fails (vitest runs no teardown then), and
// every child process dies with this one (DynamoDB Local's stdin guard, esbuild's service).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionEnvironment, type LocalStack } from '../../infra/local/stack.ts';
import { freePort } from '../../infra/local/services.ts';
import { type Runner, startRunner } from '../../infra/local/runner.ts';
import { TEST_TIMEOUT_SCALE } from './runner.ts';
import { FUNCTION_LOG_ENV, keepFunctionOutput, showLogs } from './function-log-file.ts';
import { acquireStack, forgetNoRunner } from './services.ts';

/** Only for test/foundation/orphans.test.ts: fail half-way through setup, after the stack started. */
const FAIL_AFTER_STACK = process.env.TRI_API_TEST_FAIL_SETUP === 'after-stack';

/**
 * The `http` and `slow` projects both name this setup; vitest runs it once for each, in its main
 * process. One runner serves both (two would each poll the table's stream, and every webhook
 * would be delivered twice): the first call starts it, the last teardown stops it.
 */
const KEY = Symbol.for('tri-api.test.runner');
const registry = globalThis as unknown as Record<
  symbol,
  { started: Promise<() => Promise<void>>; users: number } | undefined
>;

export default async function setup() {
  let shared = registry[KEY];
  if (!shared) {
    const started = start();
    shared = registry[KEY] = { started, users: 0 };
    started.catch(() => {
      if (registry[KEY] === shared) registry[KEY] = undefined;
    });
  }
  const held = shared;
  const stop = await held.started;
  held.users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--held.users > 0) return;
    if (registry[KEY] === held) registry[KEY] = undefined;
    await stop();
  };
}

async function start(): Promise<() => Promise<void>> {
  const held = acquireStack();
  const scratch = held.scratch;
  let stack: LocalStack | undefined;
  let runner: Runner | undefined;
  const teardown = async () => {
    await runner?.close().catch(() => {});
    await held.release();
  };
  try {
    stack = await held.stack;
    if (FAIL_AFTER_STACK)
      throw new Error('global setup failing on purpose (TRI_API_TEST_FAIL_SETUP=after-stack)');
    const port = await freePort();
    // One runner serves every test file: no shared token may hit the Notes rate limit. The rate-limit
    // tests give their tokens a small limit of their own (fullIdentity().issueToken(user, { rateLimit })).
    process.env.NOTES_RATE_LIMIT ??= '1000000';
    // Webhook deliveries on a test's time scale (docs/webhooks.md): retries after 1, 1, 2 s, an
    // attempt's deadline 1.5 s, a crashed delivery offered again after 3 s.
    process.env.WEBHOOK_RETRY_DELAYS ??= '1,1,2';
    process.env.WEBHOOK_ATTEMPT_TIMEOUT_MS ??= '1500';
    process.env.LOCAL_QUEUE_VISIBILITY_SECONDS ??= '3';
    // More warm function environments than npm start's 8 (about 30 MB each): the suite calls every
    // function, most of them many times, and each cold start imports the packages again.
    process.env.LOCAL_WARM_FUNCTIONS ??= '16';
    process.env[FUNCTION_LOG_ENV] = join(scratch, 'function-logs.tsv');
    forgetNoRunner();
    const env = functionEnvironment(stack, `http://localhost:${port}`);
    Object.assign(process.env, env, {
      LOCAL_S3_ENDPOINT: stack.s3Endpoint,
      LOCAL_DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
    });
    runner = await startRunner({
      port,
      env,
      s3Endpoint: stack.s3Endpoint,
      bucketName: stack.bucketName,
      buildDir: join(scratch, 'build'),
      // Three times each function's Timeout: two test workers, every function and DynamoDB Local
      // share 2 cores, and an emulator slow to answer must not pass for a function past its deadline
      // (a live update lost so under load). The Timeout itself is tested on runners of their own, at 1.
      timeoutScale: TEST_TIMEOUT_SCALE,
      // The functions' output, kept for the test that fails (function-logs.ts), unless asked for.
      functionOutput: showLogs() ? undefined : keepFunctionOutput(process.env[FUNCTION_LOG_ENV]!),
      // The runner's own log (routes, event sources, crashes), to a file when asked: TRI_API_TEST_RUNNER_LOG=path.
      log: process.env.TRI_API_TEST_RUNNER_LOG
        ? (line) =>
            appendFileSync(process.env.TRI_API_TEST_RUNNER_LOG!, `${new Date().toISOString()} ${line}\n`)
        : undefined,
    });
    // Bundle every function in the background, in one esbuild run; a request that comes first waits for it.
    if (!process.env.TRI_API_TEST_NO_PREBUILD) {
      const r = runner;
      void r.bundles.buildAll().then(() => r.warm());
    }
  } catch (err) {
    await teardown();
    throw err;
  }
  process.env.TEST_BASE_URL ??= runner.url;
  process.env.LOCAL_RUNNER_URL = runner.url;
  return teardown;
}
