// At most MAX_FACTORS factors a user, under concurrency: a counter item in the user's partition
// (`FACTORSLOTS`, `count`) that each enrolment's transaction increments only while it is below the
// maximum, and each deletion's decrements. Listing then putting would let concurrent enrolments all
// see room. The count may run high (a pending factor that expired still holds its slot) or be
// missing or negative (factors enrolled before it, by the operator's CLI, which drops the counter):
// when an enrolment finds no room, the count is recomputed from the user's live factors (a
// consistent Query made after the refusal) and reset only if it is still the value refused, so a
// concurrent enrolment or deletion is never lost; then the enrolment is tried again.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { MAX_FACTORS } from '../model.ts';
import { table, type Item, type Write } from './dynamo-writes.ts';

/** An enrolment refused for want of a slot; `old`: the counter as it was. */
export class NoSlot extends Error {
  constructor(readonly old: Item | undefined) {
    super('no factor slot left');
  }
}

/** Takes a slot: in the enrolment's transaction. */
export const takeSlot = (userId: string): Write => ({
  item: {
    Update: {
      TableName: table(),
      Key: k.factorSlots(userId),
      UpdateExpression: 'SET #type = :type ADD #count :one',
      // A missing or negative count is refused too: it is recounted first.
      ConditionExpression: '#count < :max AND #count >= :zero',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: { ':type': 'factor-slots', ':one': 1, ':max': MAX_FACTORS, ':zero': 0 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  },
  lost: (old) => new NoSlot(old),
});

/** Gives `n` slots back: in the deletion's transaction (one update: an item appears once in a transaction). */
export const freeSlot = (userId: string, n = 1): Write => ({
  item: {
    Update: {
      TableName: table(),
      Key: k.factorSlots(userId),
      UpdateExpression: 'SET #type = :type ADD #count :minusOne',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: { ':type': 'factor-slots', ':minusOne': -n },
    },
  },
  lost: () => new Error('unconditional'),
});

/** Drops the counter (the operator's CLI enrols without it): the next enrolment recounts. */
export const dropSlots = (userId: string): Write => ({
  item: { Delete: { TableName: table(), Key: k.factorSlots(userId) } },
  lost: () => new Error('unconditional'),
});

/**
 * After a refusal: the user's live factors counted (active, or pending and not expired at `now`),
 * and the counter set to that if it still holds `old`. False when there is no room at all.
 */
export async function recount(userId: string, old: Item | undefined, now: number): Promise<boolean> {
  const live = await liveFactors(userId, now);
  if (live >= MAX_FACTORS) return false;
  // A transaction's cancellation reason holds the item in attribute-value form ({N: '10'}).
  const raw = old?.count;
  const seen = raw && typeof raw === 'object' && 'N' in raw ? Number((raw as { N: string }).N) : raw;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.factorSlots(userId),
        UpdateExpression: 'SET #type = :type, #count = :live',
        ConditionExpression: seen === undefined ? 'attribute_not_exists(#count)' : '#count = :seen',
        ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
        ExpressionAttributeValues: {
          ':type': 'factor-slots',
          ':live': live,
          ...(seen === undefined ? {} : { ':seen': seen }),
        },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err); // else changed meanwhile: try again
  }
  return true;
}

async function liveFactors(userId: string, now: number): Promise<number> {
  let count = 0;
  let start: Item | undefined;
  try {
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          FilterExpression:
            'attribute_not_exists(pendingUntil) OR pendingUntil = :null OR pendingUntil > :now',
          ExpressionAttributeValues: {
            ':pk': k.bankPartition(userId),
            ':prefix': k.devicePrefix,
            ':null': null,
            ':now': now,
          },
          ProjectionExpression: 'SK',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
  } catch (err) {
    throw storeFailure(err);
  }
  return count;
}
