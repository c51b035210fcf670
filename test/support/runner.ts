// A runner of a test's own (usually on a template cut down to the functions the test needs), on a
// free port beside the test run's runner, on the S3 emulator the global setup started. Close it in
// afterAll.
import { type Runner, type RunnerOptions, startRunner } from '../../infra/local/runner.ts';
import { freePort } from '../../infra/local/services.ts';

/**
 * How many times its Timeout a function of the shared test runner gets (RunnerOptions.timeoutScale),
 * and of a test's own runner that does not test the Timeout itself.
 */
export const TEST_TIMEOUT_SCALE = 3;

export type OwnRunnerOptions = Omit<RunnerOptions, 'port' | 'env' | 's3Endpoint' | 'bucketName'> & {
  /** The functions' variables, given the port the runner listens on (default: none). */
  env?: (port: number) => Record<string, string>;
};

export async function startOwnRunner({ env, ...options }: OwnRunnerOptions): Promise<Runner> {
  const port = await freePort();
  return startRunner({
    port,
    env: env?.(port) ?? {},
    s3Endpoint: process.env.LOCAL_S3_ENDPOINT!,
    bucketName: process.env.BUCKET_NAME!,
    ...options,
  });
}
