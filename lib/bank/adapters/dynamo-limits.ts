// DynamoDB side of the MFA abuse limits (lib/bank/limits.ts): one counter item per limit and
// subject in the user's partition. Counting is one conditional UpdateItem (ADD), alone or inside
// the transaction of a verification start; a counter still on an older window is moved to the
// current one (optimistically) and the count retried.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { limitError, retryAfter, rolled, type LimitSlot, type LimitState } from '../limits.ts';
import { table, type Item, type Write } from './dynamo-writes.ts';

/** A counter moved to a new window by concurrent requests: attempts before giving up. */
export const LIMIT_ATTEMPTS = 3;

const numberOf = (v: unknown): number =>
  Number(v && typeof v === 'object' && 'N' in v ? (v as { N: string }).N : v);

/** A count refused by its condition; `old` is the counter as it was. */
export class LimitRefusal extends Error {
  constructor(readonly old: Item | undefined) {
    super('limit counter refused the count');
  }
}

/** Counts one event: the first ever creates the counter; else it must be this window's and under its cap. */
const countUpdate = (slot: LimitSlot) => ({
  TableName: table(),
  Key: k.mfaLimit(slot.userId, slot.name, slot.subject),
  UpdateExpression:
    'SET #type = :type, #window = if_not_exists(#window, :window), #cap = if_not_exists(#cap, :max), #ttl = :ttl ADD #count :one',
  // `:max` too: a configured maximum lowered meanwhile (SmsVoiceHourlyLimit) holds at once.
  ConditionExpression: 'attribute_not_exists(PK) OR (#window = :window AND #count < #cap AND #count < :max)',
  ExpressionAttributeNames: {
    '#type': 'type',
    '#window': 'window',
    '#cap': 'cap',
    '#count': 'count',
    '#ttl': 'ttl',
  },
  ExpressionAttributeValues: {
    ':type': 'mfa-limit',
    ':window': slot.window,
    ':max': slot.max,
    ':ttl': slot.ttl,
    ':one': 1,
  },
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
});

/** The count as a transaction item; a refusal is a LimitRefusal for settleLimit. */
export const countWrite = (slot: LimitSlot): Write => ({
  item: { Update: countUpdate(slot) },
  lost: (old) => new LimitRefusal(old),
});

/** Gives back a counted event (a right proof is not a failure). */
export const releaseWrite = (slot: LimitSlot): Write => ({
  item: {
    Update: {
      TableName: table(),
      Key: k.mfaLimit(slot.userId, slot.name, slot.subject),
      UpdateExpression: 'ADD #count :minusOne',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  },
  lost: () => new Error('unconditional'),
});

/** A refused count: the limit's error (limitError) in the same window; else the counter moves to this window. */
export async function settleLimit(slot: LimitSlot, item: Item | undefined, now: number): Promise<void> {
  const stored = item
    ? { window: numberOf(item.window), count: numberOf(item.count), cap: numberOf(item.cap) }
    : undefined;
  if (stored && stored.window === slot.window) throw limitError(slot, retryAfter(slot, stored, now));
  const next = rolled(slot, stored);
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...k.mfaLimit(slot.userId, slot.name, slot.subject),
          type: 'mfa-limit',
          ...next,
          ttl: slot.ttl,
        },
        ConditionExpression: stored ? '#window = :window AND #count = :count' : 'attribute_not_exists(PK)',
        ExpressionAttributeNames: stored ? { '#window': 'window', '#count': 'count' } : undefined,
        ExpressionAttributeValues: stored ? { ':window': stored.window, ':count': stored.count } : undefined,
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err); // else moved by a concurrent request
  }
}

/** Counts one event of a limit alone (not in a transaction). */
export async function takeLimitSlot(slot: LimitSlot, now: number): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({ ...countUpdate(slot), ReturnValues: 'ALL_NEW' }),
      );
      return Math.max(0, numberOf(Attributes?.cap) - numberOf(Attributes?.count));
    } catch (err) {
      if (!isConditionFailure(err) || attempt === LIMIT_ATTEMPTS) throw storeFailure(err);
      await settleLimit(slot, (err as { Item?: Item }).Item, now);
    }
  }
}

/** Gives back a counted event alone (a count taken for a send that did not happen). */
export async function releaseLimitSlot(slot: LimitSlot): Promise<void> {
  try {
    await documentClient().send(new UpdateCommand(releaseWrite(slot).item.Update!));
  } catch (err) {
    throw storeFailure(err);
  }
}

/** Seconds until the limit admits again when it admits nothing now, else undefined (one read). */
export async function limitReached(slot: LimitSlot, now: number): Promise<number | undefined> {
  try {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: k.mfaLimit(slot.userId, slot.name, slot.subject) }),
    );
    const stored: LimitState | undefined = Item
      ? { window: numberOf(Item.window), count: numberOf(Item.count), cap: numberOf(Item.cap) }
      : undefined;
    const state = stored?.window === slot.window ? stored : rolled(slot, stored);
    return state.count >= Math.min(state.cap, slot.max) ? retryAfter(slot, state, now) : undefined;
  } catch (err) {
    throw storeFailure(err);
  }
}
