// What the Bank's DynamoDB adapters share: one TransactWriteItems call whose failed condition
// becomes the domain error of that write (lib/data/failures.ts), and the two writes that join
// other aggregates' transactions: consuming a step-up verification, completing an Idempotency-Key.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.ts';
import { documentClient } from '../../data/dynamo.ts';
import { storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { Conflict } from '../../domain/errors.ts';
import { completionUpdate } from '../../data/idempotency.ts';
import type { Completion, StepUp } from '../ports.ts';

export type Item = Record<string, unknown>;
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
/** A transaction item and the error its failed condition means (`old`: the item as it was, if returned). */
export interface Write {
  item: TransactItem;
  lost: (old?: Item) => Error;
}

export const table = (): string => config.tableName;

export const pick = <T>(item: Item, fields: readonly string[]): T =>
  Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;

/** One TransactWriteItems request; a failed condition throws that write's error. */
export async function transact(writes: Write[]): Promise<void> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw storeFailure(err);
    const reasons = err.CancellationReasons ?? [];
    const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
    if (failed >= 0) throw writes[failed].lost(reasons[failed].Item as Item | undefined);
    if (reasons.some((r) => r.Code === 'TransactionConflict'))
      throw new Conflict('a concurrent transaction won', { reason: 'state' });
    throw err;
  }
}

const UNUSED = '(attribute_not_exists(consumedAt) OR consumedAt = :null)';

/** Marks a step-up verification consumed, if it is approved, unused and recent. */
export const consumeStepUp = (s: StepUp, lost: () => Error): Write => ({
  item: {
    Update: {
      TableName: table(),
      Key: k.verification(s.userId, s.verificationId),
      UpdateExpression: 'SET consumedAt = :now',
      ConditionExpression: `#status = :approved AND approvedAt >= :since AND ${UNUSED}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':now': s.now,
        ':approved': 'approved',
        ':since': s.approvedSince,
        ':null': null,
      },
    },
  },
  lost,
});

/** Stores the response under a reserved key, if this lease still holds it. */
export const complete = (c: Completion | undefined, lost: () => Error): Write[] =>
  c ? [{ item: { Update: completionUpdate(k.idempotency(c.userId, c.keyHash), c) }, lost }] : [];
