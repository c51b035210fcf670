// DynamoDB adapter of the webhook store (keys: lib/data/keys.ts, webhookKeys). A workspace's
// webhooks and their COUNT item share a partition: a create is one transaction (COUNT below the
// limit, the webhook new), a delete too. Each webhook's delivery log is its own partition, every
// attempt with `ttl` (DynamoDB's TTL removes it after the retention window; reads skip expired ones).
// Plain functions, so a bundle keeps only the commands its function sends.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient } from '../../../data/dynamo.ts';
import { cancellationReasons, storeFailure } from '../../../data/failures.ts';
import { webhookKeys as k, type NoteOwnerKey } from '../../../data/keys.ts';
import type { DeliveryRecord, WebhookRecord, WebhookStore } from '../webhooks.ts';

type Item = Record<string, unknown>;

const HOOK_FIELDS = [
  'id',
  'owner',
  'name',
  'url',
  'scope',
  'active',
  'sealedSecret',
  'deliveryPolicyStatus',
  'deliveryPolicyReason',
  'createdAt',
  'updatedAt',
  'pingId',
  'lastPingAt',
  'slowSince',
] as const;
const DELIVERY_FIELDS = [
  'id',
  'hookId',
  'eventId',
  'eventType',
  'attemptKind',
  'attempt',
  'status',
  'statusCategory',
  'httpStatus',
  'latencyMs',
  'errorCategory',
  'errorMessage',
  'createdAt',
  'deliveredAt',
] as const;

const pick = <T>(i: Item, fields: readonly string[]): T =>
  Object.fromEntries(fields.filter((f) => i[f] !== undefined).map((f) => [f, i[f]])) as T;
/** A webhook item as the domain sees it (also what the event router reads from stream images). */
export const toWebhook = (i: Item): WebhookRecord => pick<WebhookRecord>(i, HOOK_FIELDS);
const toDelivery = (i: Item): DeliveryRecord => pick<DeliveryRecord>(i, DELIVERY_FIELDS);
const table = () => config.tableName;
const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

/** The SDK call, with the store failure convention (lib/data/failures.ts). */
async function guard<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw storeFailure(err);
  }
}

/**
 * A workspace's webhooks: strongly consistent for the API (a hook just created is listed); the
 * event router reads them eventually consistent (`consistent: false`, half the read units).
 */
export async function listWebhooks(
  owner: NoteOwnerKey,
  opts: { consistent?: boolean } = {},
): Promise<WebhookRecord[]> {
  const { Items = [] } = await guard(
    documentClient().send(
      new QueryCommand({
        TableName: table(),
        ConsistentRead: opts.consistent ?? true,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :hook)',
        ExpressionAttributeValues: { ':pk': k.webhooksPartition(owner), ':hook': k.webhookPrefix },
      }),
    ),
  );
  return Items.map(toWebhook).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

export async function getWebhook(owner: NoteOwnerKey, hookId: string): Promise<WebhookRecord | undefined> {
  const { Item } = await guard(
    documentClient().send(
      new GetCommand({ TableName: table(), Key: k.webhook(owner, hookId), ConsistentRead: true }),
    ),
  );
  return Item ? toWebhook(Item) : undefined;
}

export async function createWebhook(hook: WebhookRecord, max: number): Promise<boolean> {
  try {
    // Transaction: the workspace's COUNT (the cap) moves with the webhook it counts.
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: k.count(hook.owner),
              UpdateExpression: 'ADD n :one',
              ConditionExpression: 'attribute_not_exists(n) OR n < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': max },
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...k.webhook(hook.owner, hook.id), type: 'webhook', ...hook },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return false;
    throw storeFailure(err);
  }
}

export async function updateWebhook(
  owner: NoteOwnerKey,
  hookId: string,
  changes: Partial<WebhookRecord>,
  updatedAt: number,
): Promise<WebhookRecord | undefined> {
  const set = { ...changes, updatedAt };
  const names = Object.keys(set);
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.webhook(owner, hookId),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(
          names.map((n, i) => [`:v${i}`, (set as Record<string, unknown>)[n]]),
        ),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toWebhook(Attributes) : undefined;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw storeFailure(err);
  }
}

export async function deleteWebhook(owner: NoteOwnerKey, hookId: string): Promise<boolean> {
  try {
    // Transaction: the workspace's COUNT moves with the webhook's removal.
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table(),
              Key: k.webhook(owner, hookId),
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          {
            Update: {
              TableName: table(),
              Key: k.count(owner),
              UpdateExpression: 'ADD n :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return false;
    throw storeFailure(err);
  }
}

export async function pingWebhook(
  owner: NoteOwnerKey,
  hookId: string,
  pingId: string,
  at: number,
  notBefore: number,
): ReturnType<WebhookStore['ping']> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.webhook(owner, hookId),
        UpdateExpression: 'SET pingId = :id, lastPingAt = :at',
        ConditionExpression:
          'attribute_exists(PK) AND (attribute_not_exists(lastPingAt) OR lastPingAt <= :notBefore)',
        ExpressionAttributeValues: { ':id': pingId, ':at': at, ':notBefore': notBefore },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'pinged' };
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) {
      const old = err.Item;
      if (!old) return { outcome: 'missing' };
      return { outcome: 'too-soon', lastPingAt: Number(old.lastPingAt?.N ?? at) };
    }
    throw storeFailure(err);
  }
}

export async function listDeliveries(hookId: string, now: number): Promise<DeliveryRecord[]> {
  const out: DeliveryRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await guard(
      documentClient().send(new QueryCommand({ ...liveDeliveries(hookId, now), ExclusiveStartKey: start })),
    );
    out.push(...(page.Items ?? []).map(toDelivery));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The live deliveries' Query, newest first (expired ones TTL has not removed yet are filtered out). */
const liveDeliveries = (hookId: string, now: number) => ({
  TableName: table(),
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)',
  FilterExpression: '#ttl > :now',
  ExpressionAttributeNames: { '#ttl': 'ttl' },
  ExpressionAttributeValues: {
    ':pk': k.deliveriesPartition(hookId),
    ':d': k.deliveryPrefix,
    ':now': epochSeconds(now),
  },
  ScanIndexForward: false,
});

/**
 * WebhookStore.deliveryPage: Queries with `Limit` from the newest, each starting where the last
 * stopped (ExclusiveStartKey), until the page is read; the count is a `Select: COUNT` Query, which
 * returns no items (DynamoDB still bills the read units of what it counts).
 */
export async function deliveryPage(
  hookId: string,
  now: number,
  skip: number,
  limit: number,
): Promise<{ data: DeliveryRecord[]; total: number }> {
  const read = async () => {
    const out: DeliveryRecord[] = [];
    let seen = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await guard(
        documentClient().send(
          new QueryCommand({
            ...liveDeliveries(hookId, now),
            // Items past the page are never read; the filter may drop a few (expired, not yet removed).
            Limit: skip + limit - seen,
            ExclusiveStartKey: start,
          }),
        ),
      );
      for (const item of page.Items ?? []) {
        if (seen >= skip) out.push(toDelivery(item));
        seen += 1;
      }
      start = page.LastEvaluatedKey;
    } while (start && seen < skip + limit);
    return out;
  };
  const count = async () => {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await guard(
        documentClient().send(
          new QueryCommand({ ...liveDeliveries(hookId, now), Select: 'COUNT', ExclusiveStartKey: start }),
        ),
      );
      total += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return total;
  };
  const [data, total] = await Promise.all([read(), count()]);
  return { data, total };
}

export async function getDelivery(
  hookId: string,
  deliveryId: string,
  now: number,
): Promise<DeliveryRecord | undefined> {
  const { Item } = await guard(
    documentClient().send(new GetCommand({ TableName: table(), Key: k.delivery(hookId, deliveryId) })),
  );
  return Item && Number(Item.ttl) > epochSeconds(now) ? toDelivery(Item) : undefined;
}

export async function recordDelivery(d: DeliveryRecord, expiresAt: number): Promise<void> {
  await guard(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...k.delivery(d.hookId, d.id), type: 'webhook-delivery', ...d, ttl: epochSeconds(expiresAt) },
      }),
    ),
  );
}

/** The webhook store over the table. */
export const dynamoWebhooks: WebhookStore = {
  list: listWebhooks,
  get: getWebhook,
  create: createWebhook,
  update: updateWebhook,
  delete: deleteWebhook,
  ping: pingWebhook,
  deliveries: listDeliveries,
  deliveryPage,
  delivery: getDelivery,
  recordDelivery,
};

/** Puts a webhook's deliveries in the slow lane since `since` (or back: null), without touching updatedAt. */
export async function setSlowLane(owner: NoteOwnerKey, hookId: string, since: number | null): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.webhook(owner, hookId),
        UpdateExpression: since === null ? 'REMOVE slowSince' : 'SET slowSince = :t',
        ConditionExpression: 'attribute_exists(PK)',
        ...(since === null ? {} : { ExpressionAttributeValues: { ':t': since } }),
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw storeFailure(err);
  }
}

/** Marks a webhook's destination as refused (or fine again), without touching updatedAt. */
export async function setDeliveryPolicy(
  owner: NoteOwnerKey,
  hookId: string,
  suppressed: boolean,
): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.webhook(owner, hookId),
        UpdateExpression: 'SET deliveryPolicyStatus = :s, deliveryPolicyReason = :r',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: {
          ':s': suppressed ? 'suppressed' : 'normal',
          ':r': suppressed ? 'unsafe_destination' : null,
        },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw storeFailure(err);
  }
}
