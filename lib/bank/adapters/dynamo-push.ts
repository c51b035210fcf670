// DynamoDB adapter of push answers (lib/bank/push.ts): the device's key by device id, the user's
// one pending push (a pointer item beside the verifications), and the decisions already answered
// (by the hash of their signing input, kept until well after a decision could still be valid).
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { DAY_SECONDS, type Verification } from '../model.ts';
import type { PushDevice, PushStore } from '../ports.ts';
import { VERIFICATION_FIELDS } from './dynamo-factors.ts';
import { pick, table, transact } from './dynamo-writes.ts';
import { lost } from './lost.ts';

export async function getPushDevice(deviceId: string): Promise<PushDevice | undefined> {
  try {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: k.pushDevice(deviceId) }),
    );
    return Item ? pick<PushDevice>(Item, ['deviceId', 'userId', 'key']) : undefined;
  } catch (err) {
    throw storeFailure(err);
  }
}

export async function currentPush(
  userId: string,
): Promise<{ verification?: Verification; current?: string }> {
  try {
    const { Item: pointer } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: k.pushPending(userId), ConsistentRead: true }),
    );
    const current = pointer?.verificationId as string | undefined;
    if (!current) return {};
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: k.verification(userId, current), ConsistentRead: true }),
    );
    return { current, verification: Item ? pick<Verification>(Item, VERIFICATION_FIELDS) : undefined };
  } catch (err) {
    throw storeFailure(err);
  }
}

export async function replayed(replayKey: string): Promise<boolean> {
  try {
    const { Responses } = await documentClient().send(
      new BatchGetCommand({
        RequestItems: { [table()]: { Keys: [k.pushReplay(replayKey)], ConsistentRead: true } },
      }),
    );
    return (Responses?.[table()] ?? []).length > 0;
  } catch (err) {
    throw storeFailure(err);
  }
}

export async function decide(
  v: Verification,
  status: 'approved' | 'denied',
  replayKey: string,
  now: number,
): Promise<void> {
  await transact([
    {
      item: {
        Put: {
          TableName: table(),
          Item: { ...k.pushReplay(replayKey), type: 'push-replay', ttl: now + DAY_SECONDS },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      lost: lost.replay,
    },
    {
      item: {
        Update: {
          TableName: table(),
          Key: k.verification(v.userId, v.id),
          UpdateExpression:
            status === 'approved' ? 'SET #status = :s, approvedAt = :now' : 'SET #status = :s',
          ConditionExpression: '#status = :pending AND expires_at > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':s': status, ':now': now, ':pending': 'pending' },
        },
      },
      lost: lost.state,
    },
    {
      item: {
        Update: {
          TableName: table(),
          Key: k.device(v.userId, v.deviceId),
          UpdateExpression: 'SET last_used = :now',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      lost: lost.device,
    },
  ]);
}

export class DynamoPushStore implements PushStore {
  getPushDevice = getPushDevice;
  currentPush = currentPush;
  replayed = replayed;
  decide = decide;
}
