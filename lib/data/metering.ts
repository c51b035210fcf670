// Counts DynamoDB requests and consumed capacity per invocation, for the bench and the budget
// tests. The local runner (and tests) wrap an invocation in `metered()`; the SDK middleware below
// adds to the meter of the invocation it runs in. Outside `metered()` (deployed Lambda) it does
// nothing. The AsyncLocalStorage lives on globalThis so every handler bundle shares one.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface DynamoMeter {
  requests: number;
  capacity: number;
  operations: string[];
  /** Units AWS bills (infra/bench/billing.ts), added only while a biller is installed (`installBiller`). */
  writeUnits?: number;
  readUnits?: number;
}

/**
 * Prices one request from the items it reads and writes: `run` sends it; the biller reads the items
 * before and after through `unmetered()` and adds to the meter. The bench and tests install one
 * (infra/bench/biller.ts); no function's bundle holds it.
 */
export type Biller = (call: {
  client: DynamoDBClient;
  command: string;
  input: Record<string, unknown>;
  meter: DynamoMeter;
  run: () => Promise<unknown>;
}) => Promise<unknown>;

const key = Symbol.for('tri-api.dynamo-meter');
const globals = globalThis as unknown as Record<symbol, AsyncLocalStorage<DynamoMeter>>;
globals[key] ??= new AsyncLocalStorage<DynamoMeter>();
const storage: AsyncLocalStorage<DynamoMeter> = globals[key];
const billerKey = Symbol.for('tri-api.dynamo-biller');
const billers = globalThis as unknown as Record<symbol, Biller | undefined>;

const billerModuleKey = Symbol.for('tri-api.dynamo-biller-module');
const billerModules = globalThis as unknown as Record<symbol, string | undefined>;

/**
 * Prices every metered request with `biller` until the returned function is called. `module`: the
 * file that exports `startBilling()` installing the same biller, for the local runner, whose
 * functions run in worker threads of their own (each installs it there for the invocation).
 */
export function installBiller(biller: Biller, module?: string): () => void {
  billers[billerKey] = biller;
  billerModules[billerModuleKey] = module;
  return () => {
    if (billers[billerKey] !== biller) return;
    billers[billerKey] = undefined;
    billerModules[billerModuleKey] = undefined;
  };
}

/** The module of the installed biller, if one is installed (installBiller). */
export const installedBillerModule = (): string | undefined =>
  billers[billerKey] ? billerModules[billerModuleKey] : undefined;

/** Runs `fn` outside any meter (a biller's own reads). */
export const unmetered = <T>(fn: () => T): T => storage.exit(fn);

export async function metered<T>(fn: () => Promise<T>): Promise<{ result: T; meter: DynamoMeter }> {
  const meter: DynamoMeter = { requests: 0, capacity: 0, operations: [], writeUnits: 0, readUnits: 0 };
  const result = await storage.run(meter, fn);
  return { result, meter };
}

const sumCapacity = (output: unknown): number => {
  const cc = (output as { ConsumedCapacity?: unknown })?.ConsumedCapacity;
  const list = (Array.isArray(cc) ? cc : cc ? [cc] : []) as Array<{ CapacityUnits?: number }>;
  return list.reduce((total, c) => total + (c?.CapacityUnits ?? 0), 0);
};

export function countDynamoRequests(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const meter = storage.getStore();
      if (!meter) return next(args);
      const input = args.input as Record<string, unknown>;
      if (input && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      meter.requests += 1;
      meter.operations.push(String((context as { commandName?: string }).commandName ?? 'unknown'));
      const result = await next(args);
      meter.capacity += sumCapacity(result.output);
      return result;
    },
    { step: 'initialize', name: 'countDynamoRequests' },
  );
  // At the build step the input is in DynamoDB's attribute-value form (the document client has
  // marshalled it), as the biller needs for item sizes.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const meter = storage.getStore();
      const biller = billers[billerKey];
      if (!meter || !biller) return next(args);
      const command = String((context as { commandName?: string }).commandName ?? 'unknown');
      let result: Awaited<ReturnType<typeof next>> | undefined;
      await biller({
        client,
        command,
        input: args.input as Record<string, unknown>,
        meter,
        run: async () => {
          result = await next(args);
          return result;
        },
      });
      return result!;
    },
    { step: 'build', name: 'billDynamoRequests' },
  );
}
