// The DynamoDB side of Idempotency-Keys (lib/domain/idempotency.ts), shared by the adapters of the
// APIs that take one: one item per (caller, key hash) in the API's own key space
// (lib/data/keys.ts), leased while in flight, completed in the transaction of the operation's own
// writes (completionUpdate), kept a day.
import { DeleteCommand, GetCommand, PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { Conflict } from '../domain/errors.ts';
import {
  IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_RETENTION_SECONDS,
  type Completion,
  type IdempotencyRecord,
  type IdempotencyStore,
} from '../domain/idempotency.ts';
import { documentClient } from './dynamo.ts';
import { conditional, isConditionFailure, storeFailure } from './failures.ts';
import type { Key } from './keys.ts';

type Update = NonNullable<NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update']>;

/** The update that completes a reservation; its condition fails when the lease was lost. */
export const completionUpdate = (Key: Key, c: Completion): Update => ({
  TableName: config.tableName,
  Key,
  UpdateExpression: 'SET #state = :completed, #response = :response REMOVE leaseUntil',
  ConditionExpression: '#state = :inProgress AND leaseId = :lease',
  ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
  ExpressionAttributeValues: {
    ':completed': 'completed',
    ':response': c.response,
    ':inProgress': 'in_progress',
    ':lease': c.leaseId,
  },
});

export class DynamoIdempotency implements IdempotencyStore {
  constructor(private readonly keyOf: (userId: string, keyHash: string) => Key) {}

  async reserveIdempotencyKey(
    userId: string,
    keyHash: string,
    fingerprint: string,
    leaseId: string,
    now: number,
  ): Promise<IdempotencyRecord | undefined> {
    const Key = this.keyOf(userId, keyHash);
    try {
      await documentClient().send(
        new PutCommand({
          TableName: config.tableName,
          Item: {
            ...Key,
            type: 'idempotency',
            state: 'in_progress',
            fingerprint,
            leaseId,
            leaseUntil: now + IDEMPOTENCY_LEASE_SECONDS,
            ttl: now + IDEMPOTENCY_RETENTION_SECONDS,
          },
          // Free, expired (TTL deletes lazily), or abandoned by a request that never finished.
          ConditionExpression:
            'attribute_not_exists(PK) OR #ttl < :now OR (#state = :inProgress AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress' },
        }),
      );
      return undefined;
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }),
      );
      // Released between our write and this read: report it as still in flight; a retry will win.
      if (!Item) return { state: 'in_progress', fingerprint };
      const held = { state: Item.state, fingerprint: Item.fingerprint } as IdempotencyRecord;
      return Item.response === undefined
        ? held
        : { ...held, response: Item.response as IdempotencyRecord['response'] };
    }
  }

  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    await conditional(
      documentClient().send(
        new DeleteCommand({
          TableName: config.tableName,
          Key: this.keyOf(userId, keyHash),
          ConditionExpression: 'leaseId = :lease AND #state = :inProgress',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':lease': leaseId, ':inProgress': 'in_progress' },
        }),
      ),
    ).catch((err) => {
      // A key already completed, or taken over after the lease ran out, is not this request's to free.
      if (!(err instanceof Conflict)) throw err;
    });
  }
}
