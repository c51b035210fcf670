// The DynamoDB side of Idempotency-Key records (lib/domain/idempotency.ts), shared by the adapters
// of the APIs that take one; each gives the key of its own records (lib/data/keys.ts).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Completion, IdempotencyRecord } from '../domain/idempotency.ts';
import { doc } from './clients.ts';
import type { Key } from './keys.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const DAY = 86_400;
const LEASE_SECONDS = 30;

export async function reserveIdempotencyKey(table: string, Key: Key, fingerprint: string, leaseId: string, now: number): Promise<IdempotencyRecord | undefined> {
  try {
    await doc.send(new PutCommand({
      TableName: table,
      Item: { ...Key, type: 'idempotency', state: 'in_progress', fingerprint, leaseId, leaseUntil: now + LEASE_SECONDS, ttl: now + DAY },
      // Free, expired (TTL deletes lazily), or abandoned by a request that never finished.
      ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#state = :inProgress AND leaseUntil < :now)',
      ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
      ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress' },
    }));
    return undefined;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }));
    // Released between our write and this read: report it as still in flight; a retry will win.
    if (!Item) return { state: 'in_progress', fingerprint };
    return { state: Item.state, fingerprint: Item.fingerprint, response: Item.response ?? undefined } as IdempotencyRecord;
  }
}

/** Deletes the reservation if it is still this request's; false when it is not (taken over or completed). */
export async function releaseIdempotencyKey(table: string, Key: Key, leaseId: string): Promise<boolean> {
  try {
    await doc.send(new DeleteCommand({
      TableName: table, Key,
      ConditionExpression: 'leaseId = :lease AND #state = :inProgress',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':lease': leaseId, ':inProgress': 'in_progress' },
    }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** The transaction item that completes a reservation; its condition fails if the lease was lost. */
export const completionItem = (table: string, Key: Key, c: Completion): TransactItem => ({
  Update: {
    TableName: table, Key,
    UpdateExpression: 'SET #state = :completed, #response = :response REMOVE leaseUntil',
    ConditionExpression: '#state = :inProgress AND leaseId = :lease',
    ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
    ExpressionAttributeValues: { ':completed': 'completed', ':response': c.response, ':inProgress': 'in_progress', ':lease': c.leaseId },
  },
});
