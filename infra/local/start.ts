// npm start: the whole product on one port, no Docker. DynamoDB Local + S3 emulator (data under
// LOCAL_DATA_DIR, default .local/), every route of template.yaml, demo data, printed credentials.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { functionEnvironment, startLocalStack } from './stack.ts';
import { startRunner } from './runner.ts';
import { ROOT } from './template.ts';
import { seedDemo, type DemoCredentials } from '../admin/seed.ts';
import { connectLocal } from '../admin/context.ts';

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(ROOT, process.env.LOCAL_DATA_DIR ?? '.local');
mkdirSync(dataDir, { recursive: true });
const stackFile = join(dataDir, 'stack.json');
const demoFile = join(dataDir, 'demo.json');

const t0 = Date.now();
const stack = await startLocalStack({ dataDir });
const baseUrl = `http://localhost:${port}`;
const env = functionEnvironment(stack, baseUrl);
let runner;
try {
  runner = await startRunner({
    port, host: process.env.HOST ?? '127.0.0.1', env, s3Endpoint: stack.s3Endpoint, bucketName: stack.bucketName, watch: true,
    log: process.env.QUIET ? undefined : (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`),
  });
} catch (err) {
  await stack.stop();
  throw err;
}
writeFileSync(stackFile, JSON.stringify({ pid: process.pid, url: runner.url, dynamoEndpoint: stack.dynamoEndpoint, s3Endpoint: stack.s3Endpoint, tableName: stack.tableName, bucketName: stack.bucketName, secretsEndpoint: process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER }, null, 2));

let demo: DemoCredentials;
if (existsSync(demoFile)) {
  demo = JSON.parse(readFileSync(demoFile, 'utf8'));
} else {
  await connectLocal(dataDir);
  demo = await seedDemo();
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
}

const byApi = new Map<string, string[]>();
for (const r of runner.routes) if (r.method !== 'ANY') (byApi.get(r.apiId) ?? byApi.set(r.apiId, []).get(r.apiId)!).push(`  ${r.method.padEnd(6)} ${r.path.padEnd(52)} ${r.entry}`);
console.log(`\ntri-api local stack ready in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${runner.url}  (data: ${dataDir})\n`);
for (const [api, lines] of byApi) console.log(`${api}\n${lines.join('\n')}\n`);
console.log(`OpenAPI: ${runner.url}/openapi/notes.json  ${runner.url}/openapi/news.json  ${runner.url}/openapi/bank.json`);
console.log(`DynamoDB Local: ${stack.dynamoEndpoint} (table ${stack.tableName})   S3 emulator: ${stack.s3Endpoint} (bucket ${stack.bucketName})\n`);
console.log('Demo credentials (Authorization: Bearer <token>):');
for (const u of demo.users) console.log(`  ${u.name.padEnd(14)} id ${u.id}  token ${u.token}${u.note ? `  (${u.note})` : ''}`);
for (const line of demo.notes ?? []) console.log(`  ${line}`);
console.log(`\nInternal CSRF endpoint: Origin: ${env.INTERNAL_EDGE_ORIGIN}  Host: ${env.INTERNAL_API_HOST}  Key: ${env.INTERNAL_API_KEY}`);
console.log(`  curl -H 'Origin: ${env.INTERNAL_EDGE_ORIGIN}' -H 'Host: ${env.INTERNAL_API_HOST}' -H 'Key: ${env.INTERNAL_API_KEY}' ${runner.url}/api/internal/v1/csrf`);
console.log(`Try: curl -H 'Authorization: Bearer ${demo.users[0]?.token}' ${runner.url}/v1/me\n`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  await runner.close().catch(() => {});
  await stack.stop().catch(() => {});
  rmSync(stackFile, { force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
