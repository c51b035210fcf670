// DynamoDB adapter of Idempotency-Keys: one item per (caller, key hash), leased while in flight,
// completed in the transaction of the operation's own writes (dynamo-writes.ts), kept a day.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { conditional, isConditionFailure, storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { Conflict } from '../../domain/errors.ts';
import type { IdempotencyRecord, IdempotencyStore } from '../ports.ts';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RETENTION_SECONDS } from '../model.ts';
import { pick, table } from './dynamo-writes.ts';

export class DynamoIdempotencyStore implements IdempotencyStore {
  async reserveIdempotencyKey(userId: string, keyHash: string, fingerprint: string, leaseId: string, now: number):
    Promise<IdempotencyRecord | undefined> {
    const Key = k.idempotency(userId, keyHash);
    try {
      await documentClient().send(new PutCommand({
        TableName: table(),
        Item: {
          ...Key, type: 'idempotency', state: 'in_progress', fingerprint, leaseId,
          leaseUntil: now + IDEMPOTENCY_LEASE_SECONDS, ttl: now + IDEMPOTENCY_RETENTION_SECONDS,
        },
        // Free, expired (TTL deletes lazily), or abandoned by a request that never finished.
        ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#state = :inProgress AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress' },
      }));
      return undefined;
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }));
      // Released between our write and this read: report it as still in flight; a retry will win.
      if (!Item) return { state: 'in_progress', fingerprint };
      const held = pick<IdempotencyRecord>(Item, ['state', 'fingerprint']);
      return Item.response === undefined ? held : { ...held, response: Item.response as IdempotencyRecord['response'] };
    }
  }

  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    await conditional(documentClient().send(new DeleteCommand({
      TableName: table(), Key: k.idempotency(userId, keyHash),
      ConditionExpression: 'leaseId = :lease AND #state = :inProgress',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':lease': leaseId, ':inProgress': 'in_progress' },
    }))).catch((err) => {
      // A key already completed, or taken over after the lease ran out, is not this request's to free.
      if (!(err instanceof Conflict)) throw err;
    });
  }
}
