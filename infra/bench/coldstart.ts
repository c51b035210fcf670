// Cold start of every function against its floor. Each function is bundled as `sam
// build` bundles it (SAM's esbuild workflow with the function's Metadata.BuildProperties, the very
// esbuild arguments of infra/deploy/build.ts), and so is the floor it is compared with: the least
// handler that creates the AWS clients the function may use and sends, with the raw client, the very
// requests the function's first call sent (recorded at the stub endpoint: floorSource), built with
// the function's BuildProperties, the fastest way a Lambda can be built (docs/deploy.md, "How
// functions are built"). Beside them, the same function built today's old way (REFERENCE_BUILD:
// CommonJS, `main` fields; an ES module function keeps its ES module keys, referenceBuild) as a
// reference column, and with --baseline another checkout's build.
// Which clients a function may use comes from its IAM policies in template.yaml; which clients a
// bundle holds, from esbuild's metafile. Each sample is a fresh `node` process (this Node 24, with the
// function's NODE_OPTIONS) that loads the bundle as Lambda's runtime does (an .mjs is imported, a .js
// required), calls its handler once against a stub AWS endpoint on loopback (so the SDK resolves its
// credentials and endpoint, signs, connects and parses, as in a real first call), and reports the
// load time, the load + first call time and the process's peak RSS. Floor, function and reference run
// in rounds, rotating which goes first; a ratio is the median of the per-round ratios.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type * as esbuild from 'esbuild';
import {
  BUILD_PROPERTIES,
  bundleExtension,
  ESBUILD,
  ESM_BUILD,
  REQUIRE_BANNER,
  samEsbuildArgs,
} from '../deploy/build.ts';
import { literalFunctionEnv } from '../local/function-env.ts';
import { listFunctions, listRoutes, loadTemplate, ROOT, type Template } from '../local/template.ts';
import { webSocketApi } from '../local/websocket.ts';
import { median } from './stats.ts';

const run = promisify(execFile);

/**
 * The cold-start targets, and the bench fails a function above any of them: load + first call and peak
 * memory relative to the floor, load + first call relative to the same function built the old way
 * (unless the old build bundles the same code), bundle bytes relative to the floor.
 */
export const TARGETS = {
  coldStart: 1.2,
  vsReference: 0.85,
  vsBaseline: 1.05,
  memory: 1.15,
  bundle: 1.3,
} as const;
/** The bundle limit (the bench's own test shows a fat bundle failing it). */
export const FAIL_RATIO = TARGETS.bundle;

/** How every function was built before ES builds were chosen (CommonJS, `main` fields): the reference column. */
export const REFERENCE_BUILD = {
  Target: BUILD_PROPERTIES.Target,
  Minify: true,
  Sourcemap: true,
  SourcesContent: 'false',
} as const;

/**
 * A function's reference build: REFERENCE_BUILD, and for an ES module function (ESM_BUILD) its ES
 * module keys too, which its code needs to run at all (SQLite's ES module entry, the embedded .wasm),
 * with the `require` banner the SDK's CommonJS builds (`main` fields) call for in an ES module: the
 * old way there differs in the `main` fields alone.
 */
export const referenceBuild = (entry: string): BuildProperties =>
  ESM_BUILD[entry] ? { ...REFERENCE_BUILD, ...ESM_BUILD[entry], Banner: [REQUIRE_BANNER] } : REFERENCE_BUILD;

const FLOORS_DIR = join(ROOT, 'infra/bench/floors');
/** AWS service prefix (IAM action, SAM policy template) of each SDK client package we use. */
const CLIENT_PACKAGES: Record<string, string> = {
  'client-dynamodb': 'dynamodb',
  'client-s3': 's3',
  'client-sns': 'sns',
  'client-sesv2': 'ses',
  'client-ses': 'ses',
  'client-secrets-manager': 'secretsmanager',
  'client-sqs': 'sqs',
  // The WebSocket API's management API (@connections), IAM's execute-api:ManageConnections.
  'client-apigatewaymanagementapi': 'execute-api',
  'client-pinpoint-sms-voice-v2': 'sms-voice',
};
const SERVICES = new Set(Object.values(CLIENT_PACKAGES));

type BuildProperties = Record<string, unknown>;
export interface Built {
  file: string;
  bytes: number;
  clients: string[];
  /** The npm packages the bundle holds (names, from the metafile). */
  packages: string[];
}

/** The AWS services a function's IAM policies allow it to call (SAM policy templates and statements). */
export function policyServices(policies: unknown): string[] {
  const found = new Set<string>();
  const fromAction = (a: unknown) => {
    const s = String(a).split(':')[0].toLowerCase();
    if (SERVICES.has(s)) found.add(s);
  };
  for (const p of Array.isArray(policies) ? policies : [policies]) {
    if (typeof p === 'string') continue; // a managed policy ARN: none of ours
    for (const [name, value] of Object.entries(p ?? {})) {
      if (name === 'Statement') {
        for (const st of [value].flat() as Array<{ Effect?: string; Action?: unknown }>) {
          if (st.Effect !== 'Deny') [st.Action].flat().forEach(fromAction);
        }
      } else {
        const prefix = /^(?:AWS)?(DynamoDB|S3|SNS|SES|SecretsManager)/i.exec(name)?.[1].toLowerCase();
        if (prefix) found.add(prefix);
      }
    }
  }
  return [...found].sort();
}

/** The npm packages a bundle holds, from the esbuild metafile of its build. */
function bundledPackages(meta: esbuild.Metafile, output: string): string[] {
  const found = new Set<string>();
  for (const input of Object.keys(meta.outputs[output].inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
    if (pkg) found.add(pkg);
  }
  return [...found].sort();
}

/** The SDK clients a bundle holds, from the esbuild metafile of its build. */
function bundledServices(meta: esbuild.Metafile, output: string): string[] {
  const found = new Set<string>();
  for (const input of Object.keys(meta.outputs[output].inputs)) {
    const pkg = /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//.exec(input)?.[1];
    if (pkg && CLIENT_PACKAGES[pkg]) found.add(CLIENT_PACKAGES[pkg]);
  }
  return [...found].sort();
}

/**
 * Builds one entry point with exactly the esbuild arguments SAM passes for these BuildProperties
 * (infra/deploy/build.ts), plus --metafile (which only writes the metafile).
 */
export async function build(entry: string, outdir: string, bp: BuildProperties, root = ROOT): Promise<Built> {
  mkdirSync(outdir, { recursive: true });
  const metafile = join(outdir, 'meta.json');
  // Another checkout (the bench's --baseline) is built by its own esbuild, from its own packages.
  const esbuildBin = root === ROOT ? ESBUILD : join(root, 'node_modules', '.bin', 'esbuild');
  await run(
    esbuildBin,
    [...samEsbuildArgs({ ...bp, EntryPoints: [entry] }, outdir), `--metafile=${metafile}`],
    {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as esbuild.Metafile;
  const ext = bundleExtension(bp);
  const output = Object.keys(meta.outputs).find((o) => o.endsWith(ext))!;
  const file = join(outdir, basename(output));
  return {
    file,
    bytes: statSync(file).size,
    clients: bundledServices(meta, output),
    packages: bundledPackages(meta, output),
  };
}

// The child, as Lambda's runtime: import an .mjs (require a .js), then call the handler once with the
// event; report the load time, the load + first call time and the peak RSS. Peak RSS is Linux's
// VmHWM, the high-water mark of the process's own address space. Not resourceUsage().maxRSS: Linux
// carries ru_maxrss across execve, so a child would report its parent's peak whenever the parent
// (the bench, with a whole stack loaded) is the larger one.
const PROBE = `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [file, name, event] = process.argv.slice(1);
const t0 = performance.now();
const c0 = process.cpuUsage();
const m = file.endsWith('.mjs') ? await import(pathToFileURL(file).href) : createRequire(file)(file);
const loadMs = performance.now() - t0;
if (typeof m[name] !== 'function') throw new Error('no handler ' + name);
const context = { functionName: 'bench', functionVersion: '$LATEST', memoryLimitInMB: '512',
  awsRequestId: 'bench-request', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench',
  logGroupName: 'bench', logStreamName: 'bench', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 3000, done() {}, fail() {}, succeed() {} };
const result = await m[name](JSON.parse(event), context);
const totalMs = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
let rss;
try { rss = +/VmHWM:\\s*(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1] * 1024; }
catch { rss = process.resourceUsage().maxRSS * 1024; }
process.stdout.write(JSON.stringify({ loadMs, totalMs, cpuMs, rss, status: result?.statusCode ?? null }), () => process.exit(0));`;

export interface Sample {
  loadMs: number;
  totalMs: number;
  /** CPU time of load + first call, every thread of the process (user + system). */
  cpuMs: number;
  rss: number;
  status: number | null;
}

export async function sample(file: string, handler: string, event: unknown, env: Record<string, string>) {
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', PROBE, file, handler, JSON.stringify(event)],
    { env, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Sample;
}

/** One request the stub answered: JSON-protocol requests carry their operation and input. */
export interface StubRequest {
  /** dynamodb, secretsmanager, sqs, execute-api (@connections); `other` for the other REST and query protocols (S3, SNS, SES). */
  service: string;
  op: string;
  input?: unknown;
}

/** X-Amz-Target prefixes of the JSON-protocol services we call, and the service each names. */
const JSON_SERVICES: Record<string, string> = {
  DynamoDB_20120810: 'dynamodb',
  secretsmanager: 'secretsmanager',
  AmazonSQS: 'sqs',
};

/**
 * A call of the WebSocket API's management API (REST-JSON: `POST|GET|DELETE /@connections/<id>`) as
 * a request a floor can replay: its command and input (the data sent as a string).
 */
function managementCall(method: string, url: string, body: Buffer): StubRequest | undefined {
  const id = /^\/@connections\/([^/?]+)/.exec(url.replace('/%40connections/', '/@connections/'))?.[1];
  const op = { POST: 'PostToConnection', GET: 'GetConnection', DELETE: 'DeleteConnection' }[method];
  if (!id || !op) return undefined;
  const ConnectionId = decodeURIComponent(id);
  return {
    service: 'execute-api',
    op,
    input: op === 'PostToConnection' ? { ConnectionId, Data: body.toString('utf8') } : { ConnectionId },
  };
}

/** A token of the right shape (lib/identity/tokens.ts), unknown to any store. */
const BENCH_TOKEN = `tri_${'b'.repeat(43)}`;
/** 32 random-looking bytes, base64: what the stub's Secrets Manager returns for every secret. */
const BENCH_SECRET = Buffer.alloc(32, 7).toString('base64');

/**
 * The stub AWS endpoint on loopback, over HTTPS like AWS's own endpoints (a certificate made for the
 * run with openssl, trusted by the samples through NODE_EXTRA_CA_CERTS; plain HTTP only where openssl
 * is missing). Over http:// the SDK would import node:http for its first request, which a Lambda
 * calling https:// endpoints never does: an ES module import of node:http costs as much as the rest
 * of a small handler's load (docs/deploy.md). DynamoDB: UpdateItem returns a token record (so the
 * Notes rate limit counts the call and the handler goes on), Query an empty page, BatchGetItem no
 * items, every other call `{}` (GetItem: no item). Secrets Manager returns a secret; S3, SNS, SES an
 * empty 200. So each first call goes through authentication to its first read, as an unknown note or
 * user would.
 */
export async function startStubEndpoint(): Promise<{
  url: string;
  /** AWS requests answered so far (samples run one at a time: the difference is one sample's). */
  requests: () => number;
  /** Every request answered so far, in order: its service, operation and input (JSON protocols). */
  recorded: () => StubRequest[];
  /** The environment a sample needs to trust the endpoint (NODE_EXTRA_CA_CERTS). */
  env: Record<string, string>;
  close: () => Promise<void>;
}> {
  const log: StubRequest[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const op = target.split('.').pop() ?? '';
      const service = JSON_SERVICES[target.split('.')[0]];
      let input: unknown;
      try {
        input = service ? JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') : undefined;
      } catch {
        input = undefined;
      }
      const connection = managementCall(req.method ?? '', req.url ?? '', Buffer.concat(chunks));
      log.push(
        service
          ? { service, op, input }
          : (connection ?? { service: 'other', op: `${req.method} ${req.url}` }),
      );
      let body = '';
      if (target.startsWith('DynamoDB_')) {
        body =
          op === 'UpdateItem'
            ? JSON.stringify({
                Attributes: {
                  userId: { S: 'bench-user' },
                  createdAt: { N: '0' },
                  rlCount: { N: '1' },
                  rlWindow: { N: '0' },
                },
              })
            : op === 'Query'
              ? '{"Items":[],"Count":0,"ScannedCount":0}'
              : op === 'BatchGetItem'
                ? '{"Responses":{},"UnprocessedKeys":{}}'
                : '{}';
        res.setHeader('content-type', 'application/x-amz-json-1.0');
      } else if (target.startsWith('secretsmanager.')) {
        body = JSON.stringify({ ARN: 'arn:bench', Name: 'bench', SecretString: BENCH_SECRET });
        res.setHeader('content-type', 'application/x-amz-json-1.1');
      }
      res.end(body);
    });
  };
  const certDir = mkdtempSync(join(tmpdir(), 'tri-api-stub-'));
  const tls = await selfSignedCertificate(certDir);
  const server: Server | HttpsServer = tls ? createHttpsServer(tls, answer) : createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests: () => log.length,
    recorded: () => [...log],
    env: tls ? { NODE_EXTRA_CA_CERTS: tls.certFile } : {},
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(certDir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** A key and a certificate for 127.0.0.1, made with openssl; undefined where openssl is missing. */
async function selfSignedCertificate(dir: string) {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
  } catch {
    process.stderr.write(
      'cold start: no openssl, the stub endpoint is plain HTTP (the SDK imports node:http)\n',
    );
    return undefined;
  }
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}

/** The API Gateway event of a function's first call: its first route, path parameters "x", a token. */
export function firstCallEvent(t: Template, functionId: string): Record<string, unknown> {
  const socket = [...(webSocketApi(t)?.routes.values() ?? [])].find((r) => r.functionId === functionId);
  if (socket) return webSocketEvent(socket.routeKey);
  const route = listRoutes(t).find((r) => r.functionId === functionId);
  // Not an HTTP function: an empty stream batch (the trash purge), or the floor's event (fixtures).
  if (!route) return { Records: [], id: 'x' };
  const pathParameters = Object.fromEntries(
    [...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name, 'x']),
  );
  const path = route.path.replace(/\{(\w+)\+?\}/g, 'x');
  const write = !['GET', 'HEAD', 'DELETE', 'ANY'].includes(route.method);
  const method = route.method === 'ANY' ? 'GET' : route.method;
  return {
    resource: route.path,
    path,
    httpMethod: method,
    headers: {
      Authorization: `Bearer ${BENCH_TOKEN}`,
      Host: 'bench.execute-api.us-east-1.amazonaws.com',
      ...(write ? { 'Content-Type': 'application/json' } : {}),
    },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
    stageVariables: null,
    requestContext: {
      requestId: 'bench-request',
      stage: 'bench',
      httpMethod: method,
      path,
      resourcePath: route.path,
      identity: { sourceIp: '127.0.0.1' },
      requestTimeEpoch: Date.now(),
    },
    body: write ? '{}' : null,
    isBase64Encoded: false,
  };
}

/**
 * A WebSocket route's first event, as API Gateway shapes it (infra/local/websocket.ts): a $connect
 * with an unknown ticket, a message (an empty document's sync step 1) or a $disconnect of an unknown
 * connection.
 */
export function webSocketEvent(routeKey: string): Record<string, unknown> {
  const eventType =
    routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
  const requestContext = {
    routeKey,
    eventType,
    messageDirection: 'IN',
    stage: 'bench',
    connectionId: 'bench0000000=',
    connectedAt: Date.now(),
    requestTimeEpoch: Date.now(),
    requestId: 'bench-request',
    domainName: 'bench.execute-api.us-east-1.amazonaws.com',
    apiId: 'bench',
    identity: { sourceIp: '127.0.0.1', userAgent: 'bench' },
    ...(eventType === 'MESSAGE' ? { messageId: 'bench0000001=' } : {}),
  };
  if (eventType === 'CONNECT')
    return {
      headers: { Host: requestContext.domainName },
      multiValueHeaders: { Host: [requestContext.domainName] },
      queryStringParameters: { ticket: 'x' },
      multiValueQueryStringParameters: { ticket: ['x'] },
      requestContext,
      isBase64Encoded: false,
    };
  return eventType === 'MESSAGE'
    ? { requestContext, body: 'AAAA', isBase64Encoded: false }
    : { requestContext: { ...requestContext, disconnectStatusCode: 1000 }, isBase64Encoded: false };
}

/** A Lambda-like environment: the function's NODE_OPTIONS (SAM adds --enable-source-maps with Sourcemap). */
export function lambdaEnv(nodeOptions: string, endpoint: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    AWS_ENDPOINT_URL: endpoint,
    CSRF_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:csrf',
    MFA_ENCRYPTION_KEY_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:mfa',
    INTERNAL_API_KEY_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:internal',
    SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:floor',
    INTERNAL_EDGE_ORIGIN: 'https://edge.example.com',
    INTERNAL_API_HOST: 'internal.example.com',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    TABLE_NAME: 'bench',
    BUCKET_NAME: 'bench',
    // The WebSocket API's URLs (template.yaml's Globals): the management API at the stub endpoint.
    NOTES_LIVE_URL: 'wss://bench.execute-api.us-east-1.amazonaws.com/bench',
    NOTES_LIVE_CONNECTIONS_URL: endpoint,
    AWS_LAMBDA_LOG_FORMAT: 'JSON',
    AWS_LAMBDA_LOG_LEVEL: 'ERROR',
    NODE_OPTIONS: nodeOptions,
  };
}

export interface ColdStartRow {
  id: string;
  floor: string;
  clients: string[];
  bytes: number;
  floorBytes: number;
  referenceBytes: number;
  /** The old build bundles the same code (no package with an ES build): "vs old build" is not a target. */
  sameCodeAsReference: boolean;
  /** Medians of the samples: load alone, load + first call, peak RSS. */
  loadMs: number;
  floorLoadMs: number;
  referenceLoadMs: number;
  coldMs: number;
  floorColdMs: number;
  referenceColdMs: number;
  /** The baseline checkout's build (--baseline), when measured. */
  baselineColdMs?: number;
  /** CPU time of load + first call (all threads), function and floor. */
  cpuMs: number;
  floorCpuMs: number;
  rss: number;
  floorRss: number;
  referenceRss: number;
  /** The first call's status code (the function's, then the reference's). */
  status: number | null;
  /** AWS requests the function's first call sent (the floor's sends one). */
  firstCallRequests: number;
  ratios: {
    bundle: number;
    load: number;
    /** On the run's clock (CPU time by default); coldStartWall: on wall time. */
    coldStart: number;
    coldStartWall: number;
    vsReference: number;
    vsBaseline?: number;
    memory: number;
  };
  problems: string[];
}

/** Builds every floor with these BuildProperties; name (file name without .ts) → bundle. */
export async function buildFloors(outdir: string, bp: BuildProperties): Promise<Map<string, Built>> {
  const built = new Map<string, Built>();
  for (const f of readdirSync(FLOORS_DIR).filter((n) => n.endsWith('.ts'))) {
    built.set(basename(f, '.ts'), await build(join(FLOORS_DIR, f), outdir, bp));
  }
  return built;
}

/** The clients a function's floor must create: those its policies allow, and DynamoDB for every function. */
export const floorServices = (policies: unknown) =>
  [...new Set(['dynamodb', ...policyServices(policies)])].sort();

/** The floor whose bundle holds exactly `services`. */
export const floorOf = (floors: Map<string, Built>, services: string[]) =>
  [...floors.keys()].find((n) => floors.get(n)!.clients.join('+') === services.join('+'));

/** Runs `work` over `items`, `width` at a time (the builds: one esbuild process per core). */
async function pool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** Whether the old build bundles the same code (no package with an ES build): it cannot be beaten. */
const sameCode = (a: Built, b: Built) => Math.abs(a.bytes / b.bytes - 1) < 0.03;

/** The SDK client of each service a floor may create: its package and class. */
const CLIENTS: Record<string, { pkg: string; cls: string }> = {
  dynamodb: { pkg: '@aws-sdk/client-dynamodb', cls: 'DynamoDBClient' },
  s3: { pkg: '@aws-sdk/client-s3', cls: 'S3Client' },
  sns: { pkg: '@aws-sdk/client-sns', cls: 'SNSClient' },
  ses: { pkg: '@aws-sdk/client-sesv2', cls: 'SESv2Client' },
  secretsmanager: { pkg: '@aws-sdk/client-secrets-manager', cls: 'SecretsManagerClient' },
  sqs: { pkg: '@aws-sdk/client-sqs', cls: 'SQSClient' },
  'execute-api': { pkg: '@aws-sdk/client-apigatewaymanagementapi', cls: 'ApiGatewayManagementApiClient' },
  'sms-voice': { pkg: '@aws-sdk/client-pinpoint-sms-voice-v2', cls: 'PinpointSMSVoiceV2Client' },
};

/** A service's client as a variable name of a floor's source (`execute-api` → `execute_api`). */
const clientVar = (service: string) => service.replace(/\W/g, '_');

/**
 * Libraries a function needs for its own job, not for answering an API call (the note page's
 * markdown renderer): a function that bundles one gets a floor that bundles it too, imported when
 * used (never by the first call), as the least such function would. Package → what the floor imports.
 * SQLite (search, indexing): its ES module entry and its engine, embedded as bytes (Loader .wasm=binary).
 * The Bank's passkeys and push keys: the WebAuthn library and jose.
 */
export const FLOOR_LIBRARIES: Record<string, string | string[]> = {
  'markdown-it': 'markdown-it',
  'markdown-it-footnote': 'markdown-it-footnote',
  'markdown-it-table-of-contents': 'markdown-it-table-of-contents',
  'highlight.js': 'highlight.js/lib/common',
  'sanitize-html': 'sanitize-html',
  '@sqlite.org/sqlite-wasm': ['@sqlite.org/sqlite-wasm', '@sqlite.org/sqlite-wasm/sqlite3.wasm'],
  // Live editing's document (the $default and stream functions): Yjs, its sync and awareness protocols.
  yjs: 'yjs',
  'y-protocols': ['y-protocols/sync', 'y-protocols/awareness'],
  // Passkeys (WebAuthn ceremonies) and push factors' device keys (JWT/JWS): lib/bank/passkeys.ts and
  // lib/bank/push-keys.ts import them on the first ceremony or signature check, as the floor does.
  '@simplewebauthn/server': '@simplewebauthn/server',
  jose: 'jose',
};

/** What a function's floor is: the clients it creates, the requests it sends, the libraries it bundles. */
export interface FloorSpec {
  services: string[];
  requests: Array<{ service: string; op: string }>;
  libraries: string[];
}

export const floorLabel = (f: FloorSpec) =>
  `${f.services.join('-')}: ${f.requests.map((r) => r.op).join(', ') || 'no request'}` +
  (f.libraries.length ? (f.libraries.includes('yjs') ? ' + Yjs' : ' + renderer') : '');

/**
 * The source of a floor: the least handler that creates the function's clients and sends, with the
 * raw client, the very requests the function's first call sent (each request's input comes in the
 * event, as the function sent it), one after the other.
 */
export function floorSource(f: FloorSpec): string {
  const other = f.requests.find((r) => !CLIENTS[r.service]);
  if (other) throw new Error(`a floor cannot replay ${other.op} (not a JSON-protocol request)`);
  const imports = f.services.map((svc) => {
    const commands = [...new Set(f.requests.filter((r) => r.service === svc).map((r) => `${r.op}Command`))];
    return `import { ${[CLIENTS[svc].cls, ...commands].join(', ')} } from '${CLIENTS[svc].pkg}';`;
  });
  const clients = f.services.map((svc) => `const ${clientVar(svc)} = new ${CLIENTS[svc].cls}({});`);
  const sends = f.requests.map(
    (r, i) => `  last = await ${clientVar(r.service)}.send(new ${r.op}Command(event.requests[${i}]));`,
  );
  const renderer = f.libraries.length
    ? [`export const renderer = () => Promise.all([${f.libraries.map((l) => `import('${l}')`).join(', ')}]);`]
    : [];
  return [
    '// Generated by infra/bench/coldstart.ts: a cold-start floor (floorSource).',
    ...imports,
    ...clients,
    ...renderer,
    'export const handler = async (event: { requests: any[] }) => {',
    '  let last: unknown;',
    ...sends,
    '  return { statusCode: 200, body: JSON.stringify(last ?? null) };',
    '};',
    '',
  ].join('\n');
}

/** Writes a floor's source under the repository (so that the SDK resolves from its node_modules). */
function writeFloor(f: FloorSpec): string {
  const src = floorSource(f);
  const dir = join(ROOT, '.local', 'bench-floors');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `floor-${createHash('sha256').update(src).digest('hex').slice(0, 16)}.ts`);
  writeFileSync(file, src);
  return file;
}

export async function coldStart(opts: {
  outdir: string;
  pairs: number;
  only?: (id: string) => boolean;
  /** template.yaml unless given (the bench's own test runs it on fixture functions). */
  template?: Template;
  /**
   * Another checkout of this repository (with its node_modules): each function is also measured as
   * that checkout builds it, in the same rounds ("vs baseline", target TARGETS.vsBaseline).
   */
  baseline?: string;
  /**
   * What the ratios compare: `cpu` (default), the CPU time of the sample's process from before the
   * load to after the first call, all threads; or `wall`, its wall time. On a machine shared with
   * other work, wall time measures the neighbours as much as the function; CPU time the work done.
   */
  clock?: 'cpu' | 'wall';
  /** Called after each function is measured (progress). */
  progress?: (row: ColdStartRow, done: number, total: number) => void;
}) {
  const template = opts.template ?? loadTemplate();
  const clock = opts.clock === 'wall' ? 'totalMs' : 'cpuMs';
  const globalEnv = (template.Globals?.Function?.Environment as any)?.Variables ?? {};
  const literalEnv = literalFunctionEnv(template);
  const base = opts.baseline ? loadTemplate(join(opts.baseline, 'template.yaml')) : undefined;
  const baseFunctions = new Map(base ? listFunctions(base).map((f) => [f.id, f]) : []);
  const baseEnv = base ? literalFunctionEnv(base) : new Map<string, Record<string, string>>();
  const functions = listFunctions(template).filter((f) => !opts.only || opts.only(f.id));
  // Every bundle first, esbuild processes in parallel; then the samples, one process at a time.
  const builds = await pool(functions, Math.max(1, availableParallelism()), async (fn) => {
    const { EntryPoints, ...bp } = fn.metadata.BuildProperties ?? {};
    const old = baseFunctions.get(fn.id);
    const [fnBuilt, refBuilt, baseBuilt] = await Promise.all([
      build(fn.entry, join(opts.outdir, fn.id), bp),
      build(fn.entry, join(opts.outdir, `${fn.id}-reference`), referenceBuild(fn.entry)),
      old && opts.baseline
        ? build(
            old.entry,
            join(opts.outdir, `${fn.id}-baseline`),
            (({ EntryPoints: _, ...rest }) => rest)(old.metadata.BuildProperties ?? {}),
            opts.baseline,
          )
        : undefined,
    ]);
    return { fn, bp, fnBuilt, refBuilt, baseBuilt };
  });
  const floorCache = new Map<string, Promise<Built>>();
  const floorFor = (f: FloorSpec, bp: BuildProperties) => {
    const key = `${floorLabel(f)} ${JSON.stringify(bp)}`;
    if (!floorCache.has(key))
      floorCache.set(key, build(writeFloor(f), join(opts.outdir, `floor-${floorCache.size}`), bp));
    return floorCache.get(key)!;
  };
  const stub = await startStubEndpoint();
  try {
    const rows: ColdStartRow[] = [];
    for (const { fn, bp, fnBuilt, refBuilt, baseBuilt } of builds) {
      const allowed = policyServices(fn.properties.Policies ?? []);
      const problems: string[] = [];
      const extra = fnBuilt.clients.filter((c) => !allowed.includes(c));
      if (extra.length)
        problems.push(`bundles the ${extra.join(', ')} client(s) its policies never allow it to call`);

      const vars = { ...globalEnv, ...(fn.properties.Environment?.Variables ?? {}) };
      let nodeOptions = typeof vars.NODE_OPTIONS === 'string' ? vars.NODE_OPTIONS : '';
      if (bp.Sourcemap === true && !nodeOptions.includes('--enable-source-maps'))
        nodeOptions = `${nodeOptions} --enable-source-maps`.trim();
      const env = { ...lambdaEnv(nodeOptions, stub.url), ...stub.env, ...literalEnv.get(fn.id) };
      const handlerName = String(fn.properties.Handler ?? 'index.handler')
        .split('.')
        .pop()!;
      const event = firstCallEvent(template, fn.id);

      // One call first (not counted): the requests the function's first call sends make its floor.
      const seen = stub.requests();
      await sample(fnBuilt.file, handlerName, event, env);
      const firstCall = stub.recorded().slice(seen);
      // Every function here uses the table; the floor creates the clients its policies allow.
      const spec: FloorSpec = {
        services: [
          ...new Set([...floorServices(fn.properties.Policies ?? []), ...firstCall.map((r) => r.service)]),
        ].sort(),
        requests: firstCall.map(({ service, op }) => ({ service, op })),
        libraries: Object.keys(FLOOR_LIBRARIES)
          .filter((pkg) => fnBuilt.packages.includes(pkg))
          .flatMap((pkg) => FLOOR_LIBRARIES[pkg]),
      };
      const floor = await floorFor(spec, bp);
      const floorEvent = { requests: firstCall.map((r) => r.input) };

      const kinds = [
        'floor',
        'function',
        'reference',
        ...(baseBuilt ? (['baseline'] as const) : []),
      ] as const;
      type Kind = 'floor' | 'function' | 'reference' | 'baseline';
      const samples: Record<Kind, Sample[]> = { floor: [], function: [], reference: [], baseline: [] };
      const take = (kind: Kind) =>
        kind === 'floor'
          ? sample(floor.file, 'handler', floorEvent, env)
          : kind === 'baseline'
            ? sample(baseBuilt!.file, handlerName, event, { ...env, ...baseEnv.get(fn.id) })
            : sample(kind === 'function' ? fnBuilt.file : refBuilt.file, handlerName, event, env);
      let firstCallRequests = 0;
      let floorRequests = 0;
      for (let i = 0; i < opts.pairs; i++) {
        // One round: the builds, one after the other, rotating which goes first.
        for (let j = 0; j < kinds.length; j++) {
          const kind = kinds[(i + j) % kinds.length];
          const before = stub.requests();
          samples[kind].push(await take(kind));
          if (kind === 'function') firstCallRequests = stub.requests() - before;
          if (kind === 'floor') floorRequests = stub.requests() - before;
        }
      }
      // The floor replays what the first call sent; a function's own later samples may send fewer
      // when a request it starts without awaiting (a secret fetched ahead) is cut by the process's exit.
      if (floorRequests !== firstCall.length)
        problems.push(
          `its floor sent ${floorRequests} requests of the ${firstCall.length} its first call sent`,
        );
      const per = (kind: Kind, f: (s: Sample, other: Sample) => number) =>
        median(samples.function.map((s, i) => f(s, samples[kind][i])));
      const ratios = {
        bundle: fnBuilt.bytes / floor.bytes,
        load: per('floor', (s, f) => s.loadMs / f.loadMs),
        coldStart: per('floor', (s, f) => s[clock] / f[clock]),
        coldStartWall: per('floor', (s, f) => s.totalMs / f.totalMs),
        vsReference: per('reference', (s, r) => s[clock] / r[clock]),
        vsBaseline: baseBuilt ? per('baseline', (s, b) => s[clock] / b[clock]) : undefined,
        memory: per('floor', (s, f) => s.rss / f.rss),
      };
      for (const k of ['bundle', 'coldStart', 'memory'] as const)
        if (ratios[k] > TARGETS[k])
          problems.push(`${k} ${ratios[k].toFixed(2)}× its floor (target ${TARGETS[k]}×)`);
      const unbeatable = sameCode(fnBuilt, refBuilt);
      if (ratios.vsReference > TARGETS.vsReference && !unbeatable)
        problems.push(
          `cold start ${ratios.vsReference.toFixed(2)}× its old build's (target ${TARGETS.vsReference}×)`,
        );
      if (ratios.vsBaseline !== undefined && ratios.vsBaseline > TARGETS.vsBaseline)
        problems.push(
          `cold start ${ratios.vsBaseline.toFixed(2)}× the baseline's (target ${TARGETS.vsBaseline}×)`,
        );
      const status = samples.function[0]?.status ?? null;
      if (status !== samples.reference[0]?.status)
        problems.push(`first call answered ${status}, its old build ${samples.reference[0]?.status}`);
      const med = (kind: Kind, k: 'loadMs' | 'totalMs' | 'cpuMs' | 'rss') =>
        median(samples[kind].map((s) => s[k]));
      const row: ColdStartRow = {
        id: fn.id,
        floor: floorLabel(spec),
        clients: fnBuilt.clients,
        bytes: fnBuilt.bytes,
        floorBytes: floor.bytes,
        referenceBytes: refBuilt.bytes,
        sameCodeAsReference: unbeatable,
        loadMs: med('function', 'loadMs'),
        floorLoadMs: med('floor', 'loadMs'),
        referenceLoadMs: med('reference', 'loadMs'),
        coldMs: med('function', 'totalMs'),
        floorColdMs: med('floor', 'totalMs'),
        referenceColdMs: med('reference', 'totalMs'),
        baselineColdMs: baseBuilt ? med('baseline', 'totalMs') : undefined,
        cpuMs: med('function', 'cpuMs'),
        floorCpuMs: med('floor', 'cpuMs'),
        rss: med('function', 'rss'),
        floorRss: med('floor', 'rss'),
        referenceRss: med('reference', 'rss'),
        status,
        firstCallRequests,
        ratios,
        problems,
      };
      rows.push(row);
      opts.progress?.(row, rows.length, builds.length);
    }
    return rows;
  } finally {
    await stub.close();
  }
}

const kib = (n: number) => (n / 1024).toFixed(0);
const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
const x = (r: number, target: number) => `${r.toFixed(2)}${r > target ? ' !' : ''}`;

/** The table `npm run bench` prints (and docs/benchmarks.md shows); "!" marks a ratio above its target. */
export function coldStartTable(rows: ColdStartRow[]): { head: string[]; body: string[][] } {
  const baseline = rows.some((r) => r.ratios.vsBaseline !== undefined);
  return {
    head: [
      'function',
      'floor',
      'KiB',
      'bundle ×',
      'load ms',
      'floor load ms',
      'load ×',
      'cold ms',
      'floor cold ms',
      'old build cold ms',
      'wall ×',
      'CPU ms',
      'floor CPU ms',
      'cold ×',
      'vs old build ×',
      ...(baseline ? ['baseline cold ms', 'vs baseline ×'] : []),
      'MiB',
      'floor MiB',
      'memory ×',
      'first call',
      'AWS requests',
      'result',
    ],
    body: rows.map((r) => [
      r.id,
      r.floor,
      kib(r.bytes),
      x(r.ratios.bundle, TARGETS.bundle),
      r.loadMs.toFixed(1),
      r.floorLoadMs.toFixed(1),
      r.ratios.load.toFixed(2),
      r.coldMs.toFixed(1),
      r.floorColdMs.toFixed(1),
      r.referenceColdMs.toFixed(1),
      r.ratios.coldStartWall.toFixed(2),
      r.cpuMs.toFixed(1),
      r.floorCpuMs.toFixed(1),
      x(r.ratios.coldStart, TARGETS.coldStart),
      r.sameCodeAsReference
        ? `${r.ratios.vsReference.toFixed(2)} (same code)`
        : x(r.ratios.vsReference, TARGETS.vsReference),
      ...(baseline
        ? [
            r.baselineColdMs?.toFixed(1) ?? '-',
            r.ratios.vsBaseline === undefined ? '-' : x(r.ratios.vsBaseline, TARGETS.vsBaseline),
          ]
        : []),
      mib(r.rss),
      mib(r.floorRss),
      x(r.ratios.memory, TARGETS.memory),
      String(r.status ?? '-'),
      String(r.firstCallRequests),
      r.problems.length ? 'FAIL' : 'ok',
    ]),
  };
}
