// A stack of its own for tests that break their dependencies (pausing DynamoDB Local would fail
// every other test file of the run): DynamoDB Local, the S3 emulator and a runner, in this test
// file's process. Call before importing anything from lib/ (SDK clients read the environment).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRunner, type Runner } from '../../infra/local/runner.ts';
import {
  ensureBucket, ensureTable, freePort, startDynamoDbLocal, startS3Local, type DynamoLocal, type S3Local,
} from '../../infra/local/services.ts';
import { functionEnvironment, LOCAL_BUCKET, LOCAL_TABLE, localSecrets, type LocalStack } from '../../infra/local/stack.ts';

export interface IsolatedStack {
  url: string;
  runner: Runner;
  /** The pid of DynamoDB Local's Java process (its shell guard is the parent). */
  javaPid: number;
  stop(): Promise<void>;
}

export async function startIsolatedStack(extraEnv: Record<string, string> = {}): Promise<IsolatedStack> {
  const scratch = mkdtempSync(join(tmpdir(), 'tri-api-faults-'));
  let dynamo: DynamoLocal | undefined;
  let s3: S3Local | undefined;
  let runner: Runner | undefined;
  const stop = async () => {
    await runner?.close().catch(() => {});
    await Promise.all([dynamo?.stop(), s3?.stop()].map((p) => p?.catch(() => {})));
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    [dynamo, s3] = await Promise.all([startDynamoDbLocal(), startS3Local({ directory: join(scratch, 's3') })]);
    await Promise.all([ensureTable(dynamo.endpoint, LOCAL_TABLE), ensureBucket(s3.endpoint, LOCAL_BUCKET)]);
    const stack = {
      dataDir: undefined, dynamoEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint, tableName: LOCAL_TABLE,
      bucketName: LOCAL_BUCKET, secrets: localSecrets(undefined), stop: async () => {},
    } satisfies LocalStack;
    const port = await freePort();
    const env = { ...functionEnvironment(stack, `http://localhost:${port}`), ...extraEnv };
    Object.assign(process.env, env, { LOCAL_DYNAMODB_ENDPOINT: dynamo.endpoint, LOCAL_S3_ENDPOINT: s3.endpoint });
    runner = await startRunner({ port, env, s3Endpoint: s3.endpoint, bucketName: LOCAL_BUCKET });
    process.env.TEST_BASE_URL = runner.url;
    const javaPid = Number(execFileSync('pgrep', ['-P', String(dynamo.process.pid)], { encoding: 'utf8' }).trim().split('\n')[0]);
    if (!Number.isInteger(javaPid) || javaPid <= 0) throw new Error('DynamoDB Local has no Java process');
    return { url: runner.url, runner, javaPid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
