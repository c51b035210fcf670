// The embedded AWS parts, without Docker: AWS's official DynamoDB Local (the jar shipped inside the
// amplify-dynamodb-simulator npm package, run with the machine's Java 17) and the s3rver S3
// emulator. Both on free loopback ports; the table and bucket are created from template.yaml.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { tableDefinition, type Template, loadTemplate } from './template.ts';

const require = createRequire(import.meta.url);

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

// s3rver accepts only its own fixed key pair; DynamoDB Local (-sharedDb) accepts any.
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';
/**
 * DynamoDB Local on a busy machine is slow, not down: the request timeout of every local client
 * (the functions under `npm start` and the admin CLI pointed at the local stack), where deployed
 * functions use 600 ms (lib/config.ts). DYNAMODB_TIMEOUT_MS in the environment wins.
 */
export const LOCAL_DYNAMODB_TIMEOUT_MS = '20000';

/** How long DynamoDB Local may take to answer: Java starts slowly on a busy 2-core machine. */
export const DYNAMODB_START_LIMIT_MS = 180_000;

export interface DynamoLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local; `dbPath` keeps data between runs, otherwise in memory. */
export async function startDynamoDbLocal(
  opts: { dbPath?: string; port?: number } = {},
): Promise<DynamoLocal> {
  const emulatorDir = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const port = opts.port ?? (await freePort());
  const args = [
    `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(emulatorDir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
  ];
  if (opts.dbPath) {
    mkdirSync(opts.dbPath, { recursive: true });
    args.push('-dbPath', opts.dbPath);
  } else args.push('-inMemory');
  // -sharedDb: one database whatever region/credentials a client uses (the admin CLI's region may differ).
  args.push('-sharedDb');
  // Java runs under a tiny shell guard: a reader kills Java as soon as our end of the guard's stdin
  // closes, so no Java outlives this process (clean stop, crash or SIGKILL); and the guard exits
  // when Java does, so a Java that dies (even by kill -9) is noticed here (the stack stops then).
  const guard = [
    'exec 3<&0',
    'java "$@" </dev/null & pid=$!',
    '(read _ <&3 || true; kill $pid 2>/dev/null) & reader=$!',
    "trap 'kill $pid 2>/dev/null' TERM INT",
    'wait $pid; code=$?; wait $pid 2>/dev/null',
    'kill $reader 2>/dev/null',
    'exit $code',
  ].join('\n');
  const child = spawn('sh', ['-c', guard, 'dynamodb-local', ...args], {
    cwd: emulatorDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`DynamoDB Local exited (${child.exitCode}). Is Java 17 installed?\n${output}`);
    try {
      await client.send(new DescribeTableCommand({ TableName: '__probe__' }));
      break;
    } catch (err) {
      if ((err as Error).name === 'ResourceNotFoundException') break;
      if (Date.now() - started > DYNAMODB_START_LIMIT_MS) {
        child.stdin!.end();
        throw new Error(`DynamoDB Local did not start in ${DYNAMODB_START_LIMIT_MS / 1000} s\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  client.destroy();
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.stdin!.end();
      setTimeout(() => {
        if (child.exitCode === null) child.kill('SIGTERM');
      }, 3000).unref();
    });
  return { endpoint, process: child, stop };
}

export interface S3Local {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startS3Local(opts: { directory: string; port?: number }): Promise<S3Local> {
  mkdirSync(opts.directory, { recursive: true });
  const port = opts.port ?? (await freePort());
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: opts.directory });
  await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

export const localClientConfig = (endpoint: string) => ({
  endpoint,
  region: LOCAL_REGION,
  credentials: LOCAL_CREDENTIALS,
});

/** Creates the table exactly as template.yaml defines it (idempotent). */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  template: Template = loadTemplate(),
): Promise<void> {
  const def = tableDefinition(template);
  const client = new DynamoDBClient(localClientConfig(endpoint));
  try {
    await client.send(new CreateTableCommand({ TableName: tableName, ...def.create }));
    if (def.ttlAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
        }),
      );
    }
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
    // A table kept in a data dir from before the stream was wanted (or with another view): set it.
    const want = def.create.StreamSpecification;
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const has = Table?.StreamSpecification;
    if (want && (!has?.StreamEnabled || has.StreamViewType !== want.StreamViewType)) {
      if (has?.StreamEnabled)
        await client.send(
          new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
        );
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: want }));
    }
  } finally {
    client.destroy();
  }
}

export async function ensureBucket(endpoint: string, bucket: string): Promise<void> {
  const client = new S3Client({ ...localClientConfig(endpoint), forcePathStyle: true });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const name = (err as Error).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  } finally {
    client.destroy();
  }
}

/** Deletes a table that ensureTable created (a test run's own table on a running stack). */
export async function dropTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient(localClientConfig(endpoint));
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
  } finally {
    client.destroy();
  }
}

/** Empties and deletes a bucket that ensureBucket created. */
export async function dropBucket(endpoint: string, bucket: string): Promise<void> {
  const client = new S3Client({ ...localClientConfig(endpoint), forcePathStyle: true });
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if ((err as Error).name !== 'NoSuchBucket') throw err;
  } finally {
    client.destroy();
  }
}
