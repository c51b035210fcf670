// Where the admin CLI and seeders point: the running local stack (found through
// LOCAL_DATA_DIR/stack.json, see infra/local/stack-file.ts) or a deployed stack (--table/--region,
// credentials from the environment). Sets the same variables the functions read, before any lib
// module creates a client.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOCAL_CREDENTIALS, LOCAL_DYNAMODB_TIMEOUT_MS, LOCAL_REGION } from '../local/services.ts';
import { defaultDataDir, runningStack } from '../local/stack-file.ts';
import { LOCAL_SECRETS } from '../local/secrets-manager.ts';
import { ROOT } from '../local/template.ts';

export interface Target {
  kind: 'local' | 'deployed';
  tableName: string;
  bucketName?: string;
  dataDir?: string;
  url?: string;
}

let active: Target | undefined;

export function targetLocal(dataDir = defaultDataDir()): Target {
  const dir = resolve(dataDir);
  const found = runningStack(dir);
  if (!found.running) {
    throw new Error(
      `no local stack is running (${found.why}): start it with "npm start" ` +
        '(same LOCAL_DATA_DIR or --data-dir), or pass --table NAME --region REGION for a deployed stack',
    );
  }
  const s = found.info;
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: s.dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: s.s3Endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: s.tableName,
    BUCKET_NAME: s.bucketName,
    CODE_SENDER: 'outbox',
    // As `npm start` gives its functions: DynamoDB Local on a busy machine is slow, not down.
    DYNAMODB_TIMEOUT_MS: process.env.DYNAMODB_TIMEOUT_MS || LOCAL_DYNAMODB_TIMEOUT_MS,
  });
  // The MFA key, from the running stack's Secrets Manager stand-in, as the functions read it.
  if (s.secretsEndpoint) {
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = s.secretsEndpoint;
    process.env.MFA_ENCRYPTION_KEY_ARN = LOCAL_SECRETS.MFA_ENCRYPTION_KEY_ARN.id;
  }
  active = { kind: 'local', tableName: s.tableName, bucketName: s.bucketName, dataDir: dir, url: s.url };
  return active;
}

export function targetDeployed(tableName: string, region?: string, bucketName?: string): Target {
  process.env.TABLE_NAME = tableName;
  if (region) process.env.AWS_REGION = region;
  if (bucketName) process.env.BUCKET_NAME = bucketName;
  active = { kind: 'deployed', tableName, bucketName };
  return active;
}

/** Where `seed` remembers the demo set it made: the local data dir, or .local/ per deployed table. */
export function demoStateFile(target: Target | undefined = active): string {
  if (target?.dataDir) return join(target.dataDir, 'demo.json');
  const dir = join(ROOT, '.local');
  mkdirSync(dir, { recursive: true });
  return join(dir, `demo-${target?.tableName ?? 'unknown'}.json`);
}
