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
}

const key = Symbol.for('tri-api.dynamo-meter');
const globals = globalThis as unknown as Record<symbol, AsyncLocalStorage<DynamoMeter>>;
globals[key] ??= new AsyncLocalStorage<DynamoMeter>();
const storage: AsyncLocalStorage<DynamoMeter> = globals[key];

export async function metered<T>(fn: () => Promise<T>): Promise<{ result: T; meter: DynamoMeter }> {
  const meter: DynamoMeter = { requests: 0, capacity: 0, operations: [] };
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
}
