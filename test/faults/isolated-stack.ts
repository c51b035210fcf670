// A DynamoDB Local of its own, for a test that breaks it (pausing the run's shared one would fail
// every other test file): started in this test file's process, with the table of template.yaml,
// and the function environment pointing at it. Call before importing anything from lib/ or
// functions/ (SDK clients read the environment when they are created).
import { execFileSync } from 'node:child_process';
import { ensureTable, freePort, startDynamoDbLocal } from '../../infra/local/services.ts';
import {
  functionEnvironment,
  LOCAL_BUCKET,
  LOCAL_TABLE,
  localSecrets,
  type LocalStack,
} from '../../infra/local/stack.ts';

export interface IsolatedDynamo {
  /** The pid of DynamoDB Local's Java process (its shell guard is the parent). */
  javaPid: number;
  stop(): Promise<void>;
}

export async function startIsolatedDynamo(extraEnv: Record<string, string> = {}): Promise<IsolatedDynamo> {
  const dynamo = await startDynamoDbLocal();
  try {
    await ensureTable(dynamo.endpoint, LOCAL_TABLE);
    // Nothing listens on the S3 port: the routes that reach S3 do so only after the table.
    const s3Endpoint = `http://127.0.0.1:${await freePort()}`;
    const stack = {
      dataDir: undefined,
      dynamoEndpoint: dynamo.endpoint,
      s3Endpoint,
      tableName: LOCAL_TABLE,
      bucketName: LOCAL_BUCKET,
      secrets: localSecrets(undefined),
      stop: async () => {},
      exited: new Promise<string>(() => {}),
    } satisfies LocalStack;
    Object.assign(process.env, functionEnvironment(stack, 'http://localhost:3000'), extraEnv, {
      LOCAL_DYNAMODB_ENDPOINT: dynamo.endpoint,
    });
    const javaPid = Number(
      execFileSync('pgrep', ['-P', String(dynamo.process.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')[0],
    );
    if (!Number.isInteger(javaPid) || javaPid <= 0) throw new Error('DynamoDB Local has no Java process');
    return { javaPid, stop: () => dynamo.stop() };
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
}
