// Starts the embedded AWS parts and provisions them from template.yaml; describes the environment
// the functions get (the same variables template.yaml gives them when deployed).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type DynamoLocal,
  dropBucket,
  dropTable,
  ensureBucket,
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_DYNAMODB_TIMEOUT_MS,
  LOCAL_REGION,
  type S3Local,
  startDynamoDbLocal,
  startS3Local,
} from './services.ts';
import { loadTemplate } from './template.ts';

export const LOCAL_TABLE = 'tri-api-local';
export const LOCAL_BUCKET = 'tri-api-images';

export interface LocalStack {
  dataDir: string | undefined;
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
  secrets: LocalSecrets;
  /** Resolves (with what happened) if DynamoDB Local dies while the stack is meant to run. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

export interface StackOptions {
  dataDir?: string;
  scratchDir?: string;
  /** Runs (and may time and print) each start-up phase. */
  phase?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

export interface LocalSecrets {
  internalApiKey: string;
  csrfSigningSecret: string;
  mfaEncryptionKey: string;
}

/** Local deployment secrets: from the environment, else generated once into DATA_DIR/secrets.json. */
export function localSecrets(dataDir: string | undefined): LocalSecrets {
  const file = dataDir ? join(dataDir, 'secrets.json') : undefined;
  const stored: Partial<LocalSecrets> =
    file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: LocalSecrets = {
    internalApiKey:
      process.env.INTERNAL_API_KEY ?? stored.internalApiKey ?? randomBytes(24).toString('base64url'),
    csrfSigningSecret:
      process.env.CSRF_SIGNING_SECRET ?? stored.csrfSigningSecret ?? randomBytes(32).toString('base64url'),
    mfaEncryptionKey:
      process.env.MFA_ENCRYPTION_KEY ?? stored.mfaEncryptionKey ?? randomBytes(32).toString('base64url'),
  };
  if (file) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** Starts DynamoDB Local and the S3 emulator; `dataDir` undefined means in memory / temporary.
 * Whatever started is stopped again if a later part fails, so a failed start leaves nothing running. */
export async function startLocalStack(opts: StackOptions): Promise<LocalStack> {
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const template = loadTemplate();
  const scratch = opts.scratchDir ?? join(tmpdir(), 'tri-api-s3');
  const s3Dir = dataDir ? join(dataDir, 's3') : join(scratch, `s3-${process.pid}-${Date.now()}`);
  const phase = opts.phase ?? (async (_name, fn) => fn());
  const started = await Promise.allSettled([
    phase('DynamoDB Local', () =>
      startDynamoDbLocal({ dbPath: dataDir ? join(dataDir, 'dynamodb') : undefined }),
    ),
    phase('S3 emulator', () => startS3Local({ directory: s3Dir })),
  ]);
  const stopAll = () =>
    Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const [dynamo, s3] = started.map((s) => (s as PromiseFulfilledResult<DynamoLocal | S3Local>).value) as [
    DynamoLocal,
    S3Local,
  ];
  let stopping = false;
  const exited = new Promise<string>((resolveExit) =>
    dynamo.process.once('exit', (code, signal) => {
      if (!stopping) resolveExit(`DynamoDB Local exited (${signal ?? code})`);
    }),
  );
  try {
    await phase('table and bucket', () =>
      Promise.all([
        ensureTable(dynamo.endpoint, LOCAL_TABLE, template),
        ensureBucket(s3.endpoint, LOCAL_BUCKET),
      ]),
    );
  } catch (err) {
    stopping = true;
    await stopAll();
    throw err;
  }
  return {
    dataDir,
    dynamoEndpoint: dynamo.endpoint,
    s3Endpoint: s3.endpoint,
    tableName: LOCAL_TABLE,
    bucketName: LOCAL_BUCKET,
    secrets: localSecrets(dataDir),
    exited,
    stop: async () => {
      stopping = true;
      await stopAll();
    },
  };
}

/**
 * A stack of its own on the DynamoDB Local and S3 emulator a running `npm start` already has
 * (stack-file.ts): a table and a bucket named after this process, deleted again by stop(). The
 * test suite uses it so that one test file starts no second Java (docs/testing.md); the data of
 * `npm start` is never touched.
 */
export async function attachLocalStack(running: {
  dynamoEndpoint: string;
  s3Endpoint: string;
}): Promise<LocalStack> {
  const suffix = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const tableName = `tri-api-test-${suffix}`;
  const bucketName = `tri-api-test-${suffix}`;
  const { dynamoEndpoint, s3Endpoint } = running;
  await Promise.all([
    ensureTable(dynamoEndpoint, tableName, loadTemplate()),
    ensureBucket(s3Endpoint, bucketName),
  ]);
  return {
    dataDir: undefined,
    dynamoEndpoint,
    s3Endpoint,
    tableName,
    bucketName,
    secrets: localSecrets(undefined),
    exited: new Promise(() => {}),
    stop: async () => {
      await Promise.all([dropTable(dynamoEndpoint, tableName), dropBucket(s3Endpoint, bucketName)]);
    },
  };
}

/** The environment the functions run with locally (the local counterpart of template.yaml's). */
export function functionEnvironment(stack: LocalStack, baseUrl: string): Record<string, string> {
  const defaults: Record<string, string> = {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: stack.s3Endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: stack.tableName,
    BUCKET_NAME: stack.bucketName,
    PUBLIC_BASE_URL: baseUrl,
    IMAGE_BASE_URL: `${baseUrl}/_images`,
    INTERNAL_EDGE_ORIGIN: 'https://edge.internal.localhost',
    INTERNAL_API_HOST: 'api.internal.localhost',
    INTERNAL_API_KEY: stack.secrets.internalApiKey,
    CSRF_SIGNING_SECRET: stack.secrets.csrfSigningSecret,
    MFA_ENCRYPTION_KEY: stack.secrets.mfaEncryptionKey,
    TRANSFER_STEP_UP_AMOUNT: '1000000',
    CODE_SENDER: 'outbox',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN', // lib/http/logger.ts (Lambda: ApplicationLogLevel)
    // DynamoDB Local on a busy machine is slow, not down (deployed: 600 ms, lib/config.ts).
    DYNAMODB_TIMEOUT_MS: process.env.DYNAMODB_TIMEOUT_MS ?? LOCAL_DYNAMODB_TIMEOUT_MS,
    // Webhooks locally: http URLs allowed, and deliveries reach only these destinations (docs/webhooks.md).
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1,localhost',
    // The WebSocket API (infra/local/websocket.ts): what clients connect to, and the management
    // endpoint the functions send through (@aws-sdk/client-apigatewaymanagementapi).
    NOTES_LIVE_URL: `${baseUrl.replace(/^http/, 'ws')}/_live`,
    NOTES_LIVE_CONNECTIONS_URL: `${baseUrl.replace('//localhost:', '//127.0.0.1:')}/_live`,
    // Passkeys locally: RP ID localhost, the runner's own origin (docs/bank.md).
    PASSKEY_RP_ID: 'localhost',
    PASSKEY_ORIGINS: baseUrl,
  };
  // Explicit settings in the caller's environment win (e.g. INTERNAL_EDGE_ORIGIN).
  // Notes per-token rate limit (default HackMD's 100 per 300 s, lib/config.ts): tests and the bench raise it.
  for (const key of [
    'INTERNAL_EDGE_ORIGIN',
    'INTERNAL_API_HOST',
    'TRANSFER_STEP_UP_AMOUNT',
    'PUBLIC_BASE_URL',
    'LOG_LEVEL',
    'NOTES_RATE_LIMIT',
    'NOTES_RATE_WINDOW_SECONDS',
    'NOTES_TRASH_RETENTION_DAYS',
    'NOTES_WEBHOOK_LIMIT',
    'WEBHOOK_ALLOWED_DESTINATIONS',
    'WEBHOOK_DELIVERY_RETENTION_DAYS',
    'WEBHOOK_ATTEMPT_TIMEOUT_MS',
    'WEBHOOK_RETRY_DELAYS',
    // Bank MFA: the code sender and its stand-ins (docs/bank.md, "Voice and SMS").
    'CODE_SENDER',
    'EMAIL_FROM',
    'SMS_VOICE_ORIGINATION_IDENTITY',
    'SMS_VOICE_ALLOWED_CALLING_CODES',
    'SMS_VOICE_HOURLY_LIMIT',
    'PASSKEY_RP_ID',
    'PASSKEY_ORIGINS',
    'PUSH_PLATFORM_APPLICATION_ARN',
  ]) {
    if (process.env[key]) defaults[key] = process.env[key]!;
  }
  // The standard per-service endpoint variables (AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2, ..._SNS,
  // ..._SESV2) reach the functions; the table's and the bucket's stay the stack's own.
  for (const [key, value] of Object.entries(process.env))
    if (key.startsWith('AWS_ENDPOINT_URL_') && !(key in defaults) && value) defaults[key] = value;
  return defaults;
}
