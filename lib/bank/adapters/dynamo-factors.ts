// DynamoDB adapter of the factors: enrolled devices, verifications, recovery mfa_tokens and the
// local code outbox, all in the user's partition but the tokens (keyed by their hash). One function
// per port method, so a function's bundle holds only the ones its wiring names (docs/architecture.md,
// "Bundles"); DynamoFactorStore gathers them for the admin CLI, the bench and the tests.
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { conditional, storeFailure } from '../../data/failures.ts';
import { bankKeys as k } from '../../data/keys.ts';
import { sha256 } from '../crypto.ts';
import {
  DAY_SECONDS,
  type Device,
  type MfaTokenRecord,
  type OutboxEntry,
  type Verification,
  type VerificationStatus,
} from '../model.ts';
import type { LimitSlot } from '../limits.ts';
import type { Approval, Completion, FactorStore, StepUp } from '../ports.ts';
import {
  complete,
  consumeStepUp,
  pick,
  table,
  transact,
  type Item,
  type TransactItem,
  type Write,
} from './dynamo-writes.ts';
import {
  LIMIT_ATTEMPTS,
  LimitRefusal,
  countWrite,
  releaseLimitSlot,
  releaseWrite,
  settleLimit,
  takeLimitSlot,
} from './dynamo-limits.ts';
import { dropSlots, freeSlot } from './dynamo-factor-slots.ts';
import { lost } from './lost.ts';

const DEVICE_FIELDS = [
  'id',
  'userId',
  'kind',
  'name',
  'default',
  'created',
  'last_used',
  'address',
  'sealedSecret',
  'lastStep',
  'status',
  'pendingUntil',
  'activationHash',
  'sealedChallenge',
  'passkey',
  'pushKey',
  'pushEndpoint',
  'enrolledWithoutStepUp',
] as const;
export const VERIFICATION_FIELDS = [
  'id',
  'userId',
  'deviceId',
  'kind',
  'status',
  'attempts',
  'created',
  'expires_at',
  'codeHash',
  'sealedSecret',
  'approvedAt',
  'consumedAt',
  'sealedChallenge',
  'passkey',
  'pushKey',
] as const;
const TOKEN_FIELDS = ['tokenHash', 'userId', 'reusable', 'expires_at', 'created'] as const;
/** A TOTP step is accepted once: only after the factor's last accepted one. */
const AFTER_LAST_STEP = '(attribute_not_exists(lastStep) OR lastStep = :null OR lastStep < :step)';
const OUTBOX_FIELDS = [
  'userId',
  'verificationId',
  'deviceId',
  'channel',
  'to',
  'code',
  'sent',
  'expires_at',
] as const;

/** The operator's enrolment (admin CLI): the factor, and the user's slot counter dropped (recounted when next needed). */
export async function putDevice(d: Device): Promise<void> {
  await transact([
    {
      item: {
        Put: {
          TableName: table(),
          Item: { ...k.device(d.userId, d.id), type: 'device', ...d },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      lost: lost.state,
    },
    dropSlots(d.userId),
  ]);
}

export async function getDevice(userId: string, deviceId: string): Promise<Device | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.device(userId, deviceId) }),
  );
  return Item ? pick<Device>(Item, DEVICE_FIELDS) : undefined;
}

export async function listDevices(userId: string): Promise<Device[]> {
  return (await queryPrefix(userId, k.devicePrefix)).map((i) => pick<Device>(i, DEVICE_FIELDS));
}

/** The item by which a passkey's credential id is registered once (lib/data/keys.ts). */
export const credentialKey = (credentialId: string) => k.passkeyCredential(sha256(credentialId));

/** The factor holds a passkey: its credential's item must go in the same transaction. */
class HoldsPasskey extends Error {
  constructor(readonly credentialId: string) {
    super('the factor holds a passkey');
  }
}
/** The credential's claim is another factor's (this passkey was activated before claims existed). */
class ClaimedByAnother extends Error {}

/** The credential id of a factor item as a failed condition returns it (attribute-value form or not). */
const credentialIdOf = (old: Item): string | undefined => {
  const passkey = old.passkey as Item | undefined;
  const id = (passkey?.M as Item | undefined)?.credentialId ?? passkey?.credentialId;
  return typeof id === 'string' ? id : ((id as { S?: string } | undefined)?.S ?? undefined);
};

/** A pending factor past its 10 minutes, as a failed condition returns it: gone already. */
const expiredPending = (old: Item, now: number): boolean => {
  const raw = old.pendingUntil as unknown;
  const until = typeof raw === 'object' && raw !== null ? Number((raw as { N?: string }).N) : Number(raw);
  return raw !== null && raw !== undefined && !(raw as { NULL?: boolean }).NULL && until <= now;
};

export async function deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void> {
  // Transaction: the step-up is spent exactly when the factor it allows removing goes, and a push
  // factor's device key (what its app signs in with) goes with it: no key outlives its factor. A
  // passkey's credential item goes with it too, and its slot is given back; a pending factor past
  // its 10 minutes is gone already (and holds no slot once recounted), so it is not found. Tried first as a factor without a passkey (no read:
  // two requests); a factor that holds one fails that condition, which returns its credential id,
  // and the transaction is made again with the credential's item.
  try {
    await transact(deleteWrites(userId, deviceId, stepUp));
  } catch (err) {
    if (!(err instanceof HoldsPasskey)) throw err;
    try {
      await transact(deleteWrites(userId, deviceId, stepUp, err.credentialId));
    } catch (again) {
      // A passkey activated before claims existed, whose id another factor claimed since: that
      // claim stays, and the factor still goes.
      if (!(again instanceof ClaimedByAnother)) throw again;
      await transact(deleteWrites(userId, deviceId, stepUp, err.credentialId, false));
    }
  }
}

function deleteWrites(
  userId: string,
  deviceId: string,
  stepUp: StepUp,
  credentialId?: string,
  freeClaim = true,
): Write[] {
  const live = '(attribute_not_exists(pendingUntil) OR pendingUntil = :null OR pendingUntil > :now)';
  const device: Write = {
    item: {
      Delete: {
        TableName: table(),
        Key: k.device(userId, deviceId),
        ...(credentialId
          ? {
              ConditionExpression: `attribute_exists(PK) AND ${live} AND passkey.credentialId = :credential`,
              ExpressionAttributeValues: { ':credential': credentialId, ':null': null, ':now': stepUp.now },
            }
          : {
              ConditionExpression: `attribute_exists(PK) AND ${live} AND (attribute_not_exists(passkey) OR passkey = :null)`,
              ExpressionAttributeValues: { ':null': null, ':now': stepUp.now },
            }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    lost: (old) => {
      if (!old || expiredPending(old, stepUp.now)) return lost.device();
      const held = credentialIdOf(old);
      return held && !credentialId ? new HoldsPasskey(held) : lost.state();
    },
  };
  return [
    consumeStepUp(stepUp, lost.stepUp),
    device,
    { item: { Delete: { TableName: table(), Key: k.pushDevice(deviceId) } }, lost: lost.device },
    ...(credentialId && freeClaim
      ? [
          {
            // Only this factor's claim (a passkey activated before claims existed has none).
            item: {
              Delete: {
                TableName: table(),
                Key: credentialKey(credentialId),
                ConditionExpression: 'attribute_not_exists(PK) OR (userId = :user AND deviceId = :device)',
                ExpressionAttributeValues: { ':user': userId, ':device': deviceId },
              },
            },
            lost: () => new ClaimedByAnother('the credential is claimed by another factor'),
          },
        ]
      : []),
    freeSlot(userId),
  ];
}

type VerificationWrites = {
  outbox?: OutboxEntry;
  completion?: Completion;
  start?: LimitSlot;
  pushPending?: boolean;
};

export async function createVerification(v: Verification, opts: VerificationWrites): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await writeVerification(v, opts);
    } catch (err) {
      if (!(err instanceof LimitRefusal && opts.start) || attempt === LIMIT_ATTEMPTS) throw err;
      await settleLimit(opts.start, err.old, v.created);
    }
  }
}

/** Counting a failed attempt alone is the limits module's (dynamo-limits.ts). */
export { releaseLimitSlot, takeLimitSlot };

/** A code in the local outbox (the partition's, until it expires); enrolment writes one too. */
export const outboxWrite = (o: OutboxEntry): Write => ({
  item: {
    Put: {
      TableName: table(),
      Item: {
        ...k.outbox(o.userId, o.sent * 1000, o.verificationId),
        type: 'outbox',
        ...o,
        ttl: o.expires_at,
      },
    },
  },
  lost: lost.state,
});

async function writeVerification(v: Verification, opts: VerificationWrites): Promise<void> {
  const ttl = v.expires_at + DAY_SECONDS;
  const outbox: Write[] = opts.outbox ? [outboxWrite(opts.outbox)] : [];
  // Transaction when the start counts against a limit (the count and the verification go together);
  // otherwise the one put is a conditional write (lib/bank/adapters/dynamo-writes.ts).
  await transact([
    ...(opts.start ? [countWrite(opts.start)] : []),
    {
      item: {
        Put: {
          TableName: table(),
          Item: { ...k.verification(v.userId, v.id), type: 'verification', ...v, ttl },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      lost: lost.state,
    },
    ...outbox,
    // The user's one pending push: this one supersedes any before (they read as expired).
    ...(opts.pushPending
      ? [
          {
            item: {
              Put: {
                TableName: table(),
                Item: { ...k.pushPending(v.userId), type: 'push-pending', verificationId: v.id, ttl },
              },
            },
            lost: lost.state,
          },
        ]
      : []),
    ...complete(opts.completion, lost.key),
  ]);
}

export async function getVerification(userId: string, verificationId: string, tokenHash?: string) {
  // One BatchGet: the verification, the user's pending-push pointer (a push superseded by a newer
  // one approves nothing) and, when asked, the mfa_token.
  const verificationKey = k.verification(userId, verificationId);
  const pointerKey = k.pushPending(userId);
  const keys = [verificationKey, pointerKey, ...(tokenHash ? [k.mfaToken(tokenHash)] : [])];
  const { Responses } = await documentClient().send(
    new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }),
  );
  const items = Responses?.[table()] ?? [];
  const verification = items.find((i) => i.SK === verificationKey.SK);
  const pointer = items.find((i) => i.SK === pointerKey.SK);
  const token = items.find((i) => i.SK === k.mfaTokenSk);
  return {
    verification: verification ? pick<Verification>(verification, VERIFICATION_FIELDS) : undefined,
    currentPush: pointer?.verificationId as string | undefined,
    ...(tokenHash ? { token: token ? pick<MfaTokenRecord>(token, TOKEN_FIELDS) : undefined } : {}),
  };
}

export async function recordFailure(
  v: Verification,
  attempts: number,
  status: VerificationStatus,
): Promise<void> {
  await conditional(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.verification(v.userId, v.id),
        UpdateExpression: 'SET attempts = :attempts, #status = :status',
        ConditionExpression: 'attempts = :seen AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':attempts': attempts,
          ':status': status,
          ':seen': v.attempts,
          ':pending': 'pending',
        },
      }),
    ),
    lost.state,
  );
}

/** A passkey's signature counter must grow, unless the authenticator keeps none (0). */
const COUNTER_GROWS = '(passkey.#counter < :counter OR :counter = :zero)';

function deviceUse(v: Verification, a: Approval): Write {
  const otp = a.step !== undefined;
  const passkey = a.counter !== undefined;
  if (passkey)
    return {
      item: {
        Update: {
          TableName: table(),
          Key: k.device(v.userId, v.deviceId),
          UpdateExpression: 'SET last_used = :now, passkey.#counter = :counter',
          ConditionExpression: `attribute_exists(PK) AND ${COUNTER_GROWS}`,
          ExpressionAttributeNames: { '#counter': 'counter' },
          ExpressionAttributeValues: { ':now': a.now, ':counter': a.counter, ':zero': 0 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      lost: (old) => (old ? lost.replay() : lost.device()),
    };
  return {
    item: {
      Update: {
        TableName: table(),
        Key: k.device(v.userId, v.deviceId),
        UpdateExpression: otp ? 'SET last_used = :now, lastStep = :step' : 'SET last_used = :now',
        ConditionExpression: otp ? `attribute_exists(PK) AND ${AFTER_LAST_STEP}` : 'attribute_exists(PK)',
        ExpressionAttributeValues: otp
          ? { ':now': a.now, ':step': a.step, ':null': null }
          : { ':now': a.now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    // A device update that failed because the device is gone is not a replay.
    lost: (old) => (otp && old ? lost.replay() : lost.device()),
  };
}

/** Takes a recovery code out of the user's set: it works once. */
const useRecoveryCode = (userId: string, hash: string): Write => ({
  item: {
    Update: {
      TableName: table(),
      Key: k.recoveryCodes(userId),
      UpdateExpression: 'DELETE codes :one',
      ConditionExpression: 'contains(codes, :hash)',
      ExpressionAttributeValues: { ':one': new Set([hash]), ':hash': hash },
    },
  },
  lost: lost.token,
});

export async function approve(v: Verification, a: Approval): Promise<void> {
  // Transaction when the approval carries a second item (the factor's OTP step, the limit's slot
  // given back, the key's completion): they change with the approval or not at all. Alone: one write.
  await transact([
    {
      item: {
        Update: {
          TableName: table(),
          Key: k.verification(v.userId, v.id),
          UpdateExpression: 'SET #status = :approved, approvedAt = :now',
          ConditionExpression: 'attempts = :seen AND #status = :pending AND expires_at > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':approved': 'approved',
            ':now': a.now,
            ':seen': v.attempts,
            ':pending': 'pending',
          },
        },
      },
      lost: lost.state,
    },
    deviceUse(v, a),
    // A push approves only while it is the user's current one (no newer push started meanwhile).
    ...(v.pushKey
      ? [
          {
            item: {
              ConditionCheck: {
                TableName: table(),
                Key: k.pushPending(v.userId),
                ConditionExpression: 'verificationId = :id',
                ExpressionAttributeValues: { ':id': v.id },
              },
            },
            lost: lost.superseded,
          },
        ]
      : []),
    ...(a.token ? [useToken(a.token.tokenHash, a.token.consume, a.now)] : []),
    ...(a.recoveryHash ? [useRecoveryCode(v.userId, a.recoveryHash)] : []),
    ...(a.release ? [releaseWrite(a.release)] : []),
    ...complete(a.completion, lost.key),
  ]);
}

export async function putMfaToken(t: MfaTokenRecord, completion?: Completion): Promise<void> {
  // With a key, a transaction: the token and the key's stored (sealed) response go together, since
  // the token is a secret shown once; a retry must replay it, not mint another. Without: one put.
  await transact([
    {
      item: {
        Put: {
          TableName: table(),
          Item: { ...k.mfaToken(t.tokenHash), type: 'mfa_token', ...t, ttl: t.expires_at },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      lost: lost.state,
    },
    ...complete(completion, lost.key),
  ]);
}

export async function listOutbox(userId: string, now: number): Promise<OutboxEntry[]> {
  const items = await queryPrefix(userId, k.outboxPrefix);
  return items.filter((i) => Number(i.expires_at) > now).map((i) => pick<OutboxEntry>(i, OUTBOX_FIELDS));
}

/** Every method, for the full MFA service (admin CLI, bench, tests); functions wire only what they call. */
export class DynamoFactorStore implements FactorStore {
  putDevice = putDevice;
  getDevice = getDevice;
  listDevices = listDevices;
  deleteDevice = deleteDevice;
  createVerification = createVerification;
  takeLimitSlot = takeLimitSlot;
  releaseLimitSlot = releaseLimitSlot;
  getVerification = getVerification;
  recordFailure = recordFailure;
  approve = approve;
  putMfaToken = putMfaToken;
  listOutbox = listOutbox;
}

function useToken(tokenHash: string, consume: boolean, now: number): Write {
  const condition = {
    ConditionExpression: 'attribute_exists(PK) AND expires_at > :now',
    ExpressionAttributeValues: { ':now': now },
  };
  const item: TransactItem = consume
    ? { Delete: { TableName: table(), Key: k.mfaToken(tokenHash), ...condition } }
    : { ConditionCheck: { TableName: table(), Key: k.mfaToken(tokenHash), ...condition } };
  return { item, lost: lost.token };
}

async function queryPrefix(userId: string, prefix: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  try {
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': k.bankPartition(userId), ':prefix': prefix },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  } catch (err) {
    throw storeFailure(err);
  }
  return items;
}
