// One function environment, as Lambda's runtime runs it: a worker thread of the runner
// (environments.ts) with the function's own process.env, heap limit and event loop. It loads the
// function's bundle once (the init phase), then handles one invocation at a time, each in a DynamoDB
// meter (lib/data/metering.ts's AsyncLocalStorage on globalThis, which every bundle shares). The
// runner ends it with terminate() when an invocation runs past its Timeout or its code crashes,
// whatever it is doing (a synchronous loop included), and starts a new one for the next request.
// The init phase measured (initMs) is the function's own: loading its bundle.
// Plain JavaScript, so any host (tsx, vitest, plain Node) starts it without a loader.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Module } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

// A spare (environments.ts, Spares) imports the packages the bundles share while no request waits,
// then becomes the environment of the function it is given: its variables, its bundle.
let assignment = workerData;
if (workerData.spare) {
  for (const url of workerData.preload) await import(url).catch(() => {});
  parentPort.postMessage({ type: 'spare' });
  assignment = await new Promise((resolve) => parentPort.once('message', resolve));
  for (const key of Object.keys(process.env)) if (!(key in assignment.env)) delete process.env[key];
  Object.assign(process.env, assignment.env);
}
const { functionId, file, exportName, timeoutMs, memoryMb } = assignment;
const meterKey = Symbol.for('tri-api.dynamo-meter');
globalThis[meterKey] ??= new AsyncLocalStorage();
const meters = globalThis[meterKey];

/** The npm packages a CommonJS bundle requires by URL (bundles.ts, sharedPackages), imported first. */
async function sharedPackages(source) {
  const urls = new Set([...source.matchAll(/"(file:\/\/\/[^"]+)"/g)].map((m) => m[1]));
  return new Map(await Promise.all([...urls].map(async (url) => [url, await import(url)])));
}

/** A `.js` bundle as Node loads a CommonJS handler; an `.mjs` one with Node's own import(). */
async function load() {
  if (file.endsWith('.mjs')) return import(pathToFileURL(file).href);
  const source = readFileSync(file, 'utf8');
  const shared = await sharedPackages(source);
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  const nodeRequire = Module.prototype.require;
  mod.require = (id) => shared.get(id) ?? nodeRequire.call(mod, id);
  mod._compile(source, file);
  mod.loaded = true;
  return mod.exports;
}

/** The Lambda context of one invocation; its Timeout counts from `deadline` (after init), as in Lambda. */
const context = (deadline) => ({
  callbackWaitsForEmptyEventLoop: true,
  functionName: functionId,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionId}`,
  memoryLimitInMB: String(memoryMb),
  awsRequestId: randomUUID(),
  logGroupName: `/aws/lambda/${functionId}`,
  logStreamName: 'local',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done: () => {},
  fail: () => {},
  succeed: () => {},
});

const billers = new Map();
/** The bench's biller (infra/bench/biller.ts, bundled by the runner), installed for one invocation. */
async function startBilling(url) {
  if (!url) return () => {};
  if (!billers.has(url)) billers.set(url, await import(url));
  return billers.get(url).startBilling();
}

const t0 = performance.now();
let handler;
try {
  handler = (await load())[exportName];
  if (typeof handler !== 'function') throw new Error(`${functionId} does not export ${exportName}`);
} catch (error) {
  parentPort.postMessage({ type: 'init-error', error });
  await new Promise(() => {}); // the runner ends this environment
}
const initMs = performance.now() - t0;
// Lambda's runtime asks for the first event only after init, on a later turn of the event loop:
// what init left failing (a rejected promise, an error event) fails the init.
await new Promise((resolve) => setImmediate(resolve));
parentPort.postMessage({ type: 'ready', initMs });

parentPort.on('message', async ({ event, biller }) => {
  parentPort.postMessage({ type: 'started' }); // the runner counts the Timeout from here
  const deadline = Date.now() + timeoutMs;
  const stopBilling = await startBilling(biller);
  const meter = { requests: 0, capacity: 0, operations: [], writeUnits: 0, readUnits: 0 };
  try {
    const result = await meters.run(meter, () => handler(event, context(deadline)));
    // As Lambda returns it: the result's JSON (undefined: null).
    parentPort.postMessage({ type: 'result', json: JSON.stringify(result) ?? 'null', meter });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', error: error?.stack ?? String(error) });
  } finally {
    stopBilling();
  }
});
