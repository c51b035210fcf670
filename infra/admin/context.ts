// Where the admin CLI and seeders point: the running local stack (found through
// LOCAL_DATA_DIR/stack.json) or a deployed stack (--table/--region, credentials from the
// environment). Sets the same variables the functions read, before any lib module creates a client.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOCAL_SECRETS } from '../local/secrets-manager.ts';
import { ROOT } from '../local/template.ts';

export interface Target { kind: 'local' | 'deployed'; tableName: string; bucketName?: string; dataDir?: string; url?: string }

export function targetLocal(dataDir = resolve(ROOT, process.env.LOCAL_DATA_DIR ?? '.local')): Target {
  const file = join(dataDir, 'stack.json');
  if (!existsSync(file)) throw new Error(`no running local stack found (${file} is missing): start it with "npm start", or pass --table NAME --region REGION for a deployed stack`);
  const s = JSON.parse(readFileSync(file, 'utf8'));
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_ENDPOINT_URL_DYNAMODB: s.dynamoEndpoint, AWS_ENDPOINT_URL_S3: s.s3Endpoint, S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: s.tableName, BUCKET_NAME: s.bucketName, CODE_SENDER: 'outbox',
    // The MFA key, from the running stack's stand-in Secrets Manager (as the functions read it).
    AWS_ENDPOINT_URL_SECRETS_MANAGER: s.secretsEndpoint, MFA_ENCRYPTION_KEY_ARN: LOCAL_SECRETS.MFA_ENCRYPTION_KEY_ARN.id,
  });
  return { kind: 'local', tableName: s.tableName, bucketName: s.bucketName, dataDir, url: s.url };
}

export function targetDeployed(tableName: string, region?: string, bucketName?: string): Target {
  process.env.TABLE_NAME = tableName;
  if (region) process.env.AWS_REGION = region;
  if (bucketName) process.env.BUCKET_NAME = bucketName;
  return { kind: 'deployed', tableName, bucketName };
}

/** For in-process callers (npm start, tests): point at a local stack already described by stack.json. */
export async function connectLocal(dataDir?: string): Promise<Target> {
  return targetLocal(dataDir);
}
