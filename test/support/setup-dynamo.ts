// The `dynamo` project's global setup (docs/testing.md): DynamoDB Local and the S3 emulator with
// the table and bucket, no runner. Shared with the `http` project's setup when both run
// (services.ts); what that setup sets (the runner's URL and the rest) is left as it is.
import { functionEnvironment } from '../../infra/local/stack.ts';
import { acquireStack, NO_RUNNER } from './services.ts';

export default async function setup() {
  const held = acquireStack();
  try {
    const stack = await held.stack;
    const env = {
      ...functionEnvironment(stack, NO_RUNNER),
      LOCAL_S3_ENDPOINT: stack.s3Endpoint,
      LOCAL_DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
    };
    for (const [key, value] of Object.entries(env)) process.env[key] ??= value;
  } catch (err) {
    await held.release();
    throw err;
  }
  return () => held.release();
}
