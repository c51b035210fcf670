// DynamoDB adapter of API tokens: one item per token hash, in no index (lib/data/keys.ts).
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { conditional, isConditionFailure, storeFailure } from '../../data/failures.ts';
import { identityKeys as k } from '../../data/keys.ts';
import type { CountedCall, TokenRecord, TokenStore } from '../ports.ts';
import { table } from './dynamo-items.ts';

const toRecord = (i: Record<string, unknown>): TokenRecord => ({
  userId: String(i.userId),
  createdAt: Number(i.createdAt),
  ...(i.rateLimit === undefined ? {} : { rateLimit: Number(i.rateLimit) }),
});

export async function putToken(tokenHash: string, record: TokenRecord): Promise<void> {
  await conditional(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...k.token(tokenHash), type: 'token', ...record },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

export async function getToken(tokenHash: string): Promise<TokenRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.token(tokenHash) }),
  );
  return Item ? toRecord(Item) : undefined;
}

/**
 * One UpdateItem replaces the GetItem of authentication: ADD 1 to the window's counter if the item
 * is in this window (ALL_NEW returns the record and the count). The first call of a window fails
 * that condition and starts the window with a second, conditional UpdateItem; concurrent first
 * calls race on it, and the losers count again in the fresh window. So a window costs one extra
 * request per token, every other call none; each UpdateItem bills 1 write unit (a small item, no index).
 */
export async function countCall(tokenHash: string, windowStart: number): Promise<CountedCall | undefined> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: k.token(tokenHash),
          UpdateExpression: 'ADD rlCount :one',
          ConditionExpression: 'rlWindow = :w',
          ExpressionAttributeValues: { ':one': 1, ':w': windowStart },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { record: toRecord(Attributes!), count: Number(Attributes!.rlCount) };
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      if (!(err as { Item?: unknown }).Item) return undefined; // no such token
    }
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: k.token(tokenHash),
          UpdateExpression: 'SET rlWindow = :w, rlCount = :one',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(rlWindow) OR rlWindow < :w)',
          ExpressionAttributeValues: { ':one': 1, ':w': windowStart },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { record: toRecord(Attributes!), count: 1 };
    } catch (err) {
      if (!isConditionFailure(err)) throw storeFailure(err);
      // Another call started the window (or the token was revoked): count again.
    }
  }
  return undefined;
}

export async function deleteToken(tokenHash: string): Promise<boolean> {
  const { Attributes } = await documentClient().send(
    new DeleteCommand({
      TableName: table(),
      Key: k.token(tokenHash),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

/** Every method, for the full identity service (admin CLI, tests); functions wire only what they call. */
export class DynamoTokenStore implements TokenStore {
  putToken = putToken;
  getToken = getToken;
  countCall = countCall;
  deleteToken = deleteToken;
}
