// npm start: the whole product on one port, no Docker. DynamoDB Local + S3 emulator (data under
// LOCAL_DATA_DIR, default .local/), every route of template.yaml, demo data, printed credentials.
// One line per start-up phase; one way down (stop()) for Ctrl-C, SIGTERM, a lost parent or child
// (watchdog.ts) and errors, which removes stack.json and the bundles and stops every child.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { onRunnerError } from './crash-guard.ts';
import type { Runner } from './runner.ts';
import { defaultDataDir, removeStackInfo, runningStack, writeStackInfo } from './stack-file.ts';
import type { LocalStack } from './stack.ts';
import { watchProcessTree } from './watchdog.ts';

/** How long stopping may take before the process exits anyway (children die with it). */
const STOP_LIMIT_MS = 8_000;

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = defaultDataDir();
const t0 = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[start] ${line}`);

async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  say(`${name} ...`);
  const result = await fn();
  say(`${name}: done in ${seconds(started)}`);
  return result;
}

/**
 * Whether the port is free. The probe listens for a moment; a client that connects meanwhile (one
 * polling for readiness) is disconnected at once, so closing the probe never waits for it. The port
 * is taken for good only when everything is ready (runner.listen()): until then a request is
 * refused at once, never accepted by a process too busy starting to answer it.
 */
const portFree = (): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer((socket) => socket.destroy());
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
const portInUse = () =>
  `Port ${port} is in use: stop what uses it, or choose another port with PORT=<port> npm start`;

let stack: LocalStack | undefined;
let runner: Runner | undefined;
let stopping = false;

async function stop(why: string, code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  watchdog.stop();
  removeStackInfo(dataDir);
  say(`${why}: stopping`);
  setTimeout(() => {
    say(`not stopped in ${STOP_LIMIT_MS / 1000} s: exiting`);
    process.exit(code || 1);
  }, STOP_LIMIT_MS);
  await runner?.close().catch(() => {});
  await stack?.stop().catch(() => {});
  say('stopped');
  process.exit(code);
}

const watchdog = watchProcessTree((why) => void stop(why, 1));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal, 0));
// A function's uncaught error is that function's (crash-guard.ts: 502, its environment dropped);
// only the runner's own stops everything.
onRunnerError((err) => {
  console.error(err);
  void stop('unexpected error', 1);
});
// Whatever way the process ends: no stack.json of ours and no bundles stay behind.
process.on('exit', () => {
  removeStackInfo(dataDir);
  if (runner) rmSync(runner.bundles.outdir, { recursive: true, force: true });
});

async function main(): Promise<void> {
  const other = runningStack(dataDir);
  if (other.running) {
    console.error(
      `A local stack already runs on ${dataDir} (pid ${other.info.pid}, ${other.info.url}): ` +
        'stop it first, or set LOCAL_DATA_DIR to another folder',
    );
    process.exit(1);
  }
  if (!(await portFree())) {
    console.error(portInUse());
    process.exit(1);
  }
  say(`data: ${dataDir}`);
  // Imported only now, so that a port in use is reported before anything heavy loads.
  const [{ startLocalStack, functionEnvironment }, { startRunner }, { seedDemo }, { printBanner }] =
    await Promise.all([
      import('./stack.ts'),
      import('./runner.ts'),
      import('../seed/demo.ts'),
      import('./banner.ts'),
    ]);
  stack = await startLocalStack({ dataDir, phase });
  void stack.exited.then((what) => stop(what, 1));
  const env = functionEnvironment(stack, `http://localhost:${port}`);
  const s = stack;
  runner = await phase(`runner on port ${port}`, () =>
    startRunner({
      port,
      host,
      listenLater: true,
      env,
      s3Endpoint: s.s3Endpoint,
      bucketName: s.bucketName,
      watch: true,
      buildDir: join(dataDir, 'build'),
      queueDir: dataDir,
      log: process.env.QUIET
        ? (line) => {
            if (line.startsWith('changed ')) say(line);
          }
        : (line) => say(line),
    }),
  );
  const r = runner;
  writeStackInfo(dataDir, {
    pid: process.pid,
    url: r.url,
    dynamoEndpoint: s.dynamoEndpoint,
    s3Endpoint: s.s3Endpoint,
    tableName: s.tableName,
    bucketName: s.bucketName,
    secretsEndpoint: process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER,
  });
  const [, demo] = await Promise.all([
    phase(`bundling ${r.bundles.count} functions`, () => r.bundles.buildAll().then(() => r.warm())),
    phase('demo data', () => seedDemo(join(dataDir, 'demo.json'))),
  ]);
  await r.listen().catch((err: NodeJS.ErrnoException) => {
    throw new Error(err.code === 'EADDRINUSE' ? portInUse() : err.message);
  });
  await printBanner(r, s, env, demo);
  say(`ready in ${seconds(t0)} at ${r.url}  (Ctrl-C stops everything)`);
}

main().catch((err) => {
  console.error(`npm start failed: ${(err as Error).message}`);
  void stop('start-up failed', 1);
});
