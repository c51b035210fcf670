// The webhook marks of a workspace (docs/architecture.md, "Webhook events: the hooked marker"):
// the items the event pipeline listens to (note META, named versions, comments) carry
// `hooked: true` while their workspace has a webhook, and the stream's filter passes nothing else,
// so a write in a workspace without webhooks never invokes the event router. New notes learn it from
// a mark item in the writer's own partition (webhookKeys.workspaceMark), read by the Query a note
// create already makes; existing notes are stamped once, when the workspace gets its first webhook.
// Plain functions, so a bundle keeps only the commands its function sends.
import { BatchWriteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName, queryAll } from '../../../data/dynamo.ts';
import { cancellationReasons, isConditionFailure, storeFailure } from '../../../data/failures.ts';
import {
  identityKeys,
  notesKeys,
  trashKeys,
  webhookKeys as k,
  type Key,
  type NoteOwnerKey,
} from '../../../data/keys.ts';
import type { WebhookMarks } from '../webhooks.ts';

const table = () => config.tableName;
/** UpdateItems of note stamps in flight at once (a first webhook of a large workspace). */
export const STAMP_CONCURRENCY = 16;
const BATCH_WRITE_ITEMS = 25;
/** A transaction holds 100 items: 99 mark deletes and the check that no webhook came back. */
const UNMARK_CHUNK = 99;

async function guard<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw storeFailure(err);
  }
}

/** Every page of a Query (lib/data/dynamo.ts), its failures as the store's. */
const queryAllOf = (input: Parameters<typeof queryAll>[0]) => guard(queryAll(input));

/** The workspace's webhooks now (its COUNT item, strongly consistent). */
export async function webhookCount(owner: NoteOwnerKey): Promise<number> {
  const { Item } = await guard(
    documentClient().send(new GetCommand({ TableName: table(), Key: k.count(owner), ConsistentRead: true })),
  );
  return Number(Item?.n ?? 0);
}

/** Who writes the workspace's notes: the user (no request), or every member of the team (one Query, paged). */
export async function writersOf(owner: NoteOwnerKey): Promise<string[]> {
  if ('userId' in owner) return [owner.userId];
  const members = await queryAllOf({
    TableName: table(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :m)',
    ExpressionAttributeValues: {
      ':pk': identityKeys.teamPartition(owner.teamPath),
      ':m': identityKeys.memberPrefix,
    },
    ProjectionExpression: 'userId',
  });
  return members.map((m) => String(m.userId));
}

/** The mark item of a writer (a Put: idempotent). */
export const markItem = (userId: string, owner: NoteOwnerKey) => ({
  ...k.workspaceMark(userId, owner),
  type: 'webhook-mark',
  workspace: k.markedWorkspace(owner),
});

async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_ITEMS) {
    let pending: Record<string, unknown[]> | undefined = {
      [table()]: requests.slice(i, i + BATCH_WRITE_ITEMS),
    };
    while (pending && Object.keys(pending).length) {
      const out = await guard(
        documentClient().send(new BatchWriteCommand({ RequestItems: pending as never })),
      );
      pending = out.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
}

/** Marks the workspace for its writers: their next notes are created stamped (BatchWriteItem, 25 a request). */
export async function markWriters(owner: NoteOwnerKey, writers: string[]): Promise<void> {
  await batchWrite(writers.map((u) => ({ PutRequest: { Item: markItem(u, owner) } })));
}

/**
 * Stamps the workspace's notes, live and in the trash (so a restore carries it), that are not
 * stamped yet: two Queries of GSI1 (paged) and one UpdateItem per note, STAMP_CONCURRENCY at a time.
 * The stamp leaves `version` alone (no ETag changes); a note gone meanwhile is skipped. Returns how
 * many notes were stamped.
 */
export async function stampNotes(owner: NoteOwnerKey): Promise<number> {
  const unstamped = async (partition: string) =>
    queryAllOf({
      TableName: table(),
      IndexName: indexName('GSI1'),
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'attribute_not_exists(hooked)',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'PK, SK',
    });
  const keys = [
    ...(await unstamped(notesKeys.notesOfOwnerPartition(owner))),
    ...(await unstamped(trashKeys.trashOfOwnerPartition(owner))),
  ].map((i) => ({ PK: String(i.PK), SK: String(i.SK) }) as Key);
  let next = 0;
  let stamped = 0;
  const worker = async () => {
    while (next < keys.length) {
      const Key = keys[next++];
      try {
        await documentClient().send(
          new UpdateCommand({
            TableName: table(),
            Key,
            UpdateExpression: 'SET hooked = :t',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':t': true },
          }),
        );
        stamped += 1;
      } catch (err) {
        if (!isConditionFailure(err)) throw storeFailure(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAMP_CONCURRENCY, keys.length) }, worker));
  return stamped;
}

/**
 * Removes the writers' marks, unless the workspace has a webhook again: each transaction of mark
 * deletes checks the COUNT item, so a concurrent first webhook (which marks again after it
 * committed) always wins. Notes keep their stamps (docs/architecture.md says why).
 */
export async function unmarkWriters(owner: NoteOwnerKey): Promise<void> {
  const writers = await writersOf(owner);
  for (let i = 0; i < writers.length; i += UNMARK_CHUNK) {
    try {
      // Transaction: the marks go only while the workspace has no webhook (the COUNT's check).
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: table(),
                Key: k.count(owner),
                ConditionExpression: 'attribute_not_exists(n) OR n <= :zero',
                ExpressionAttributeValues: { ':zero': 0 },
              },
            },
            ...writers
              .slice(i, i + UNMARK_CHUNK)
              .map((u) => ({ Delete: { TableName: table(), Key: k.workspaceMark(u, owner) } })),
          ],
        }),
      );
    } catch (err) {
      if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return; // a webhook came back
      throw storeFailure(err);
    }
  }
}

/** The marks over the table (WebhookService's `marks`). */
export const dynamoHookMarks: WebhookMarks = {
  count: webhookCount,
  writers: writersOf,
  markWriters,
  stampNotes,
  unmarkWriters,
};
