// What the Bank's DynamoDB adapters share: the writes of one operation (a TransactWriteItems call
// when several items must change together, else one conditional write at half the price) whose
// failed condition becomes the domain error of that write (lib/data/failures.ts), and the two
// writes that join other aggregates' transactions: consuming a step-up verification, completing an
// Idempotency-Key.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
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

/**
 * The writes of one operation, all or none: one TransactWriteItems request (2 write units per KB
 * of each item) when there are several, one conditional PutItem, UpdateItem or DeleteItem (1 per
 * KB, the same outcome) when there is one. A failed condition throws that write's error.
 */
export async function transact(writes: Write[]): Promise<void> {
  if (writes.length === 1) return single(writes[0]);
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

/** One item's conditional write; the item as it was comes back with a failed condition, as in a transaction. */
async function single(w: Write): Promise<void> {
  const { Put, Update, Delete } = w.item;
  const old = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;
  try {
    if (Put) await documentClient().send(new PutCommand({ ...Put, ...old }));
    else if (Update) await documentClient().send(new UpdateCommand({ ...Update, ...old }));
    else if (Delete) await documentClient().send(new DeleteCommand({ ...Delete, ...old }));
    else throw new Error('a single write is a Put, an Update or a Delete');
  } catch (err) {
    // The exception carries the item in DynamoDB's attribute-value form (the document client leaves it).
    if (err instanceof ConditionalCheckFailedException) throw w.lost(err.Item && unmarshall(err.Item));
    throw storeFailure(err);
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
