// The runner's stream poller against DynamoDB Local's real stream: a shard iterator that can no
// longer be read (DynamoDB Streams' TrimmedDataAccessException, ExpiredIteratorException) is
// replaced, as Lambda's event source mapping does, and reading goes on: no record is lost or handed
// on twice. Before, the poller retried the dead iterator forever and the webhook pipeline stopped.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../infra/local/lambdas.ts';
import { ensureTable, localClientConfig } from '../../infra/local/services.ts';
import { LocalQueues } from '../../infra/local/sqs.ts';
import { type StreamPoller, startStreamPoller } from '../../infra/local/stream-poller.ts';

const endpoint = process.env.LOCAL_DYNAMODB_ENDPOINT!;
const config = localClientConfig(endpoint);
const pollers: StreamPoller[] = [];
afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
});

/**
 * A Streams client on which, after arm(), the iterator of the next GetRecords is dead: every read
 * with it fails with `name`, as DynamoDB Streams answers a trimmed or expired iterator.
 */
function killingAnIterator(name: string) {
  const client = new DynamoDBStreamsClient(config);
  let armed = false;
  const dead = new Set<string>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const iterator = (args.input as { ShardIterator?: string }).ShardIterator;
      if (context.commandName === 'GetRecordsCommand' && iterator) {
        if (armed) {
          armed = false;
          dead.add(iterator);
        }
        if (dead.has(iterator)) throw Object.assign(new Error(`injected ${name}`), { name });
      }
      return next(args);
    },
    { step: 'initialize', name: 'deadIterator' },
  );
  return { client, arm: () => (armed = true) };
}

async function pollTable(streams: DynamoDBStreamsClient) {
  const tableName = `stream-poller-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const seen: string[] = [];
  const logged: string[] = [];
  pollers.push(
    await startStreamPoller({
      endpoint,
      tableName,
      clientConfig: config,
      streams,
      queues: new LocalQueues(),
      log: (line) => logged.push(line),
      pollMs: 50,
      sources: [
        { functionId: 'F', handler: 'handler', batchSize: 100, maxRetries: 0, bisect: false, filters: [] },
      ],
      invoke: async (_id, _handler, event): Promise<Outcome> => {
        for (const r of (event as { Records: DynamoDBRecord[] }).Records) seen.push(r.dynamodb!.Keys!.PK.S!);
        return { kind: 'ok', result: {} as never, meter: { requests: 0, capacity: 0, operations: [] } };
      },
    }),
  );
  const db = new DynamoDBClient(config);
  const put = (pk: string) =>
    db.send(new PutItemCommand({ TableName: tableName, Item: { PK: { S: pk }, SK: { S: 'x' } } }));
  const until = async (n: number) => {
    const deadline = Date.now() + 20_000;
    while (seen.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // and nothing more arrives
  };
  return { seen, logged, put, until };
}

describe('stream poller: a dead shard iterator is replaced', { timeout: 60_000 }, () => {
  it.each(['TrimmedDataAccessException', 'ExpiredIteratorException'])(
    'after %s every record still arrives, once',
    async (name) => {
      const streams = killingAnIterator(name);
      const t = await pollTable(streams.client);
      for (const pk of ['a', 'b', 'c']) await t.put(pk);
      await t.until(3);
      streams.arm();
      for (const pk of ['d', 'e']) await t.put(pk);
      await t.until(5);
      expect(t.seen).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(t.logged.some((l) => l.includes(name))).toBe(true);
    },
  );
});
