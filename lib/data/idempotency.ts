// The DynamoDB side of Idempotency-Keys (lib/domain/idempotency.ts), shared by the adapters of the
// APIs that take one: one item per (caller, key hash) in the API's own key space
// (lib/data/keys.ts), leased while in flight, completed in the transaction of the operation's own
// writes (completionUpdate), kept a day.
import { GetCommand, PutCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { Conflict } from '../domain/errors.ts';
import {
  IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_RETENTION_SECONDS,
  type Completion,
  type IdempotencyRecord,
  type IdempotencyStore,
  type Origin,
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
  ): Promise<IdempotencyRecord | { origin: Origin } | undefined> {
    const Key = this.keyOf(userId, keyHash);
    try {
      const { Attributes: old } = await documentClient().send(
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
            originSeed: leaseId,
            originAt: now,
          },
          // Free, expired (TTL deletes lazily), released by a request that failed, or abandoned by
          // a request that never finished.
          ConditionExpression:
            'attribute_not_exists(PK) OR #ttl < :now OR #state = :released OR (#state = :inProgress AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress', ':released': 'released' },
          // The item replaced (no read units): an abandoned reservation hands on its origin.
          ReturnValues: 'ALL_OLD',
        }),
      );
      // The same request after one that failed or died under the key: it may have written before
      // it failed (an answer lost after the commit), so it hands on its origin.
      const earlier =
        (old?.state === 'in_progress' || old?.state === 'released') &&
        Number(old.ttl) >= now &&
        old.fingerprint === fingerprint;
      return earlier ? { origin: await this.inherit(Key, leaseId, old) } : undefined;
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }),
      );
      // Released between our write and this read: report it as still in flight; a retry will win.
      if (!Item) return { state: 'in_progress', fingerprint };
      // Released (not yet retaken): still in flight to this caller; a retry will take it.
      const state = Item.state === 'completed' ? 'completed' : 'in_progress';
      const held = { state, fingerprint: Item.fingerprint } as IdempotencyRecord;
      return Item.response === undefined
        ? held
        : { ...held, response: Item.response as IdempotencyRecord['response'] };
    }
  }

  /** A takeover keeps the first attempt's origin on the record, for any later takeover too. */
  private async inherit(Key: Key, leaseId: string, old: Record<string, unknown>): Promise<Origin> {
    const origin = {
      seed: String(old.originSeed ?? old.leaseId),
      startedAt: Number(old.originAt ?? Number(old.leaseUntil) - IDEMPOTENCY_LEASE_SECONDS),
    };
    await conditional(
      documentClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key,
          UpdateExpression: 'SET originSeed = :seed, originAt = :at',
          ConditionExpression: 'leaseId = :lease',
          ExpressionAttributeValues: { ':seed': origin.seed, ':at': origin.startedAt, ':lease': leaseId },
        }),
      ),
    ).catch((err) => {
      // Taken over again meanwhile (this request outlived its lease): that request holds the origin.
      if (!(err instanceof Conflict)) throw err;
    });
    return origin;
  }

  /**
   * Frees a key this lease still holds (no error when it does not): the record stays, `released`,
   * until its TTL, so a retry of the same request keeps the key's origin (lib/domain/idempotency.ts).
   */
  async releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void> {
    await conditional(
      documentClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: this.keyOf(userId, keyHash),
          UpdateExpression: 'SET #state = :released REMOVE leaseUntil',
          ConditionExpression: 'leaseId = :lease AND #state = :inProgress',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':lease': leaseId,
            ':inProgress': 'in_progress',
            ':released': 'released',
          },
        }),
      ),
    ).catch((err) => {
      // A key already completed, or taken over after the lease ran out, is not this request's to free.
      if (!(err instanceof Conflict)) throw err;
    });
  }
}
