// DynamoDB adapter of enrolment (lib/bank/enrolment.ts): pending factors (with a ttl), their
// activation, push tickets (keyed by their hash), push device keys (keyed by device id, since a
// device JWT names only its device) and recovery codes (a string set of their hashes, one item).
// One function per port method, as in dynamo-factors.ts.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import type { Device } from '../model.ts';
import type { ActivationWrites, EnrolmentStore, EnrolmentWrites, PushTicket, StepUp } from '../ports.ts';
import { complete, consumeStepUp, pick, table, transact, type Write } from './dynamo-writes.ts';
import { releaseLimitSlot, releaseWrite, takeLimitSlot } from './dynamo-limits.ts';
import { credentialKey, getDevice, listDevices, outboxWrite } from './dynamo-factors.ts';
import { freeSlot, NoSlot, recount, takeSlot } from './dynamo-factor-slots.ts';
import { lost } from './lost.ts';

export { getDevice, listDevices, releaseLimitSlot, takeLimitSlot };

/** A refused slot is recounted, then the enrolment tried again: at most this many times. */
const SLOT_ATTEMPTS = 3;

export async function enrollDevice(d: Device, opts: EnrolmentWrites): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await writeEnrolment(d, opts);
    } catch (err) {
      if (!(err instanceof NoSlot)) throw err;
      if (!(await recount(d.userId, err.old, d.created))) throw lost.factors();
      // Room, but concurrent enrolments kept changing the count: a conflict to retry (409).
      if (attempt === SLOT_ATTEMPTS) throw lost.state();
    }
  }
}

async function writeEnrolment(d: Device, opts: EnrolmentWrites): Promise<void> {
  const t = opts.ticket;
  await transact([
    ...(opts.stepUp ? [consumeStepUp(opts.stepUp, lost.stepUp)] : []),
    // One of the user's MAX_FACTORS slots (lib/bank/adapters/dynamo-factor-slots.ts).
    takeSlot(d.userId),
    {
      item: {
        Put: {
          TableName: table(),
          // A pending factor not activated in time is deleted by the table's ttl (and ignored when read).
          Item: { ...k.device(d.userId, d.id), type: 'device', ...d, ttl: d.pendingUntil },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      lost: lost.state,
    },
    ...(opts.outbox ? [outboxWrite(opts.outbox)] : []),
    ...(t
      ? [
          {
            item: {
              Put: {
                TableName: table(),
                Item: { ...k.pushTicket(t.ticketHash), type: 'push-ticket', ...t, ttl: t.expires_at },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            lost: lost.state,
          },
        ]
      : []),
    ...complete(opts.completion, lost.key),
  ]);
}

const recoveryPut = (userId: string, hashes: string[], condition?: string): Write => ({
  item: {
    Put: {
      TableName: table(),
      Item: { ...k.recoveryCodes(userId), type: 'recovery-codes', userId, codes: new Set(hashes) },
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  },
  lost: lost.state,
});

export async function activateDevice(
  d: Device,
  changes: Partial<Device>,
  opts: ActivationWrites,
): Promise<void> {
  const names: Record<string, string> = { '#status': 'status', '#ttl': 'ttl' };
  const values: Record<string, unknown> = { ':pending': 'pending_activation', ':now': opts.now };
  const sets = Object.entries({ ...changes, status: 'active' }).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const p = opts.push;
  await transact([
    {
      item: {
        Update: {
          TableName: table(),
          Key: k.device(d.userId, d.id),
          UpdateExpression: `SET ${sets.join(', ')} REMOVE #ttl, pendingUntil, activationHash, sealedChallenge, enrolledWithoutStepUp`,
          ConditionExpression: '#status = :pending AND pendingUntil > :now',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      lost: lost.state,
    },
    ...(opts.stepUp ? [consumeStepUp(opts.stepUp, lost.stepUp)] : []),
    ...(opts.recoveryHashes ? [recoveryPut(d.userId, opts.recoveryHashes, 'attribute_not_exists(PK)')] : []),
    ...(opts.ticketHash
      ? [
          {
            item: {
              Delete: {
                TableName: table(),
                Key: k.pushTicket(opts.ticketHash),
                ConditionExpression: 'attribute_exists(PK) AND expires_at > :now',
                ExpressionAttributeValues: { ':now': opts.now },
              },
            },
            lost: lost.token,
          },
        ]
      : []),
    ...(p
      ? [
          {
            item: {
              Put: {
                TableName: table(),
                Item: { ...k.pushDevice(p.deviceId), type: 'push-device', ...p },
              },
            },
            lost: lost.state,
          },
        ]
      : []),
    // A passkey's credential id, registered once across every user (WebAuthn Level 3 §7.1).
    ...(opts.credentialId
      ? [
          {
            item: {
              Put: {
                TableName: table(),
                Item: {
                  ...credentialKey(opts.credentialId),
                  type: 'passkey-credential',
                  userId: d.userId,
                  deviceId: d.id,
                  created: opts.now,
                },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            lost: lost.credential,
          },
        ]
      : []),
    ...(opts.release ? [releaseWrite(opts.release)] : []),
    ...discardWrites(d.userId, opts.discard ?? [], opts.now),
  ]);
}

/**
 * The first activation's discards, in its transaction, so no discarded factor is ever usable once
 * the user has an active one: each a conditional delete (still pending and unexpired at the
 * activation's `now`, else the activation is a Conflict('state') to retry), and one update of the
 * slot counter for all. At most MAX_FACTORS - 1 deletes: far under the 100 items of a transaction.
 * A pending factor has no push device key or credential claim to delete (an activation writes them).
 */
function discardWrites(userId: string, discard: Device[], now: number): Write[] {
  if (!discard.length) return [];
  return [
    ...discard.map(
      (x): Write => ({
        item: {
          Delete: {
            TableName: table(),
            Key: k.device(userId, x.id),
            ConditionExpression: '#status = :pending AND pendingUntil > :now',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pending': 'pending_activation', ':now': now },
          },
        },
        lost: lost.state,
      }),
    ),
    freeSlot(userId, discard.length),
  ];
}

export async function getTicket(ticketHash: string): Promise<PushTicket | undefined> {
  const Item = await get(k.pushTicket(ticketHash));
  return Item ? pick<PushTicket>(Item, ['ticketHash', 'userId', 'deviceId', 'expires_at']) : undefined;
}

export async function hasRecoveryCodes(userId: string): Promise<boolean> {
  return Boolean(await get(k.recoveryCodes(userId)));
}

export async function replaceRecoveryCodes(userId: string, hashes: string[], stepUp: StepUp): Promise<void> {
  await transact([consumeStepUp(stepUp, lost.stepUp), recoveryPut(userId, hashes)]);
}

async function get(key: { PK: string; SK: string }) {
  try {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }),
    );
    return Item;
  } catch (err) {
    throw storeFailure(err);
  }
}

/** Every method (admin CLI, bench, tests); functions wire only what they call. */
export class DynamoEnrolmentStore implements EnrolmentStore {
  listDevices = listDevices;
  getDevice = getDevice;
  enrollDevice = enrollDevice;
  takeLimitSlot = takeLimitSlot;
  releaseLimitSlot = releaseLimitSlot;
  activateDevice = activateDevice;
  getTicket = getTicket;
  hasRecoveryCodes = hasRecoveryCodes;
  replaceRecoveryCodes = replaceRecoveryCodes;
}
