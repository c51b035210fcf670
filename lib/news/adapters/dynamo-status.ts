// DynamoDB adapter of the status counters: one item per shard, each its own partition. One function
// per port method: every News function flushes its counts (addStatusCounts), only the status route
// reads the shards (docs/architecture.md, "Bundles"); DynamoStatusStore gathers them for the tests.
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { newsKeys as k } from '../../data/keys.ts';
import { Unavailable } from '../../domain/errors.ts';
import type { StatusShard, StatusStore } from '../ports.ts';
import { table, type Item } from './dynamo-shared.ts';

export async function addStatusCounts(
  shard: number,
  served: number,
  errors: number,
  now: number,
): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: k.statusShard(shard),
      UpdateExpression: 'ADD served :s, errors :e SET startedAt = if_not_exists(startedAt, :now)',
      ExpressionAttributeValues: { ':s': served, ':e': errors, ':now': now },
    }),
  );
}

export async function readStatusShards(shards: number): Promise<StatusShard[]> {
  const keys: Item[] = Array.from({ length: shards }, (_, i) => ({ ...k.statusShard(i) }));
  const read = async (Keys: Item[]) =>
    documentClient().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys } } }));
  const first = await read(keys);
  const items = [...(first.Responses?.[table()] ?? [])];
  const unprocessed = first.UnprocessedKeys?.[table()]?.Keys;
  if (unprocessed?.length) {
    const second = await read(unprocessed);
    if (second.UnprocessedKeys?.[table()]?.Keys?.length)
      throw new Unavailable('status counters could not be read');
    items.push(...(second.Responses?.[table()] ?? []));
  }
  return items.map((i) => ({
    served: (i.served as number) ?? 0,
    errors: (i.errors as number) ?? 0,
    startedAt: i.startedAt as number | undefined,
  }));
}

/** Every method, for the contract tests; functions wire only what they call. */
export class DynamoStatusStore implements StatusStore {
  addStatusCounts = addStatusCounts;
  readStatusShards = readStatusShards;
}
