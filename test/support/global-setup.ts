// Once per `npm test`: AWS's DynamoDB Local (in memory) and the S3 emulator, the table and bucket
// from template.yaml, and the local runner on a free port. Test workers inherit the environment,
// so event-payload tests call handlers against the same real DynamoDB and S3, and HTTP tests use
// TEST_BASE_URL. Set TEST_BASE_URL yourself to run the HTTP suites against a deployed stack.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionEnvironment, startLocalStack } from '../../infra/local/stack.ts';
import { freePort } from '../../infra/local/services.ts';
import { startRunner } from '../../infra/local/runner.ts';

export default async function setup() {
  const scratch = mkdtempSync(join(tmpdir(), 'tri-api-test-'));
  const stack = await startLocalStack({ scratchDir: scratch });
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  // One runner serves every test file: no shared token may hit the Notes rate limit. The rate-limit
  // tests give their tokens a small limit of their own (identity.issueToken(user, { rateLimit })).
  process.env.NOTES_RATE_LIMIT ??= '1000000';
  const env = functionEnvironment(stack, baseUrl);
  Object.assign(process.env, env, { LOCAL_S3_ENDPOINT: stack.s3Endpoint, LOCAL_DYNAMODB_ENDPOINT: stack.dynamoEndpoint });
  const runner = await startRunner({ port, env, s3Endpoint: stack.s3Endpoint, bucketName: stack.bucketName });
  process.env.TEST_BASE_URL ??= runner.url;
  process.env.LOCAL_RUNNER_URL = runner.url;
  return async () => {
    await runner.close();
    await stack.stop();
    rmSync(scratch, { recursive: true, force: true });
  };
}
