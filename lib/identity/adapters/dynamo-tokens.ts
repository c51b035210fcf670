// DynamoDB adapter of API tokens: one item per token hash; GSI1 lists a user's tokens.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { conditional } from '../../data/failures.ts';
import { identityKeys as k } from '../../data/keys.ts';
import type { TokenRecord, TokenStore } from '../ports.ts';
import { table } from './dynamo-items.ts';

export class DynamoTokenStore implements TokenStore {
  async putToken(tokenHash: string, record: TokenRecord): Promise<void> {
    await conditional(documentClient().send(new PutCommand({
      TableName: table(),
      Item: { ...k.token(tokenHash), ...k.tokensOfUser(record.userId), type: 'token', ...record },
      ConditionExpression: 'attribute_not_exists(PK)',
    })));
  }

  async getToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: k.token(tokenHash) }));
    return Item ? { userId: String(Item.userId), createdAt: Number(Item.createdAt) } : undefined;
  }

  async deleteToken(tokenHash: string): Promise<boolean> {
    const { Attributes } = await documentClient().send(new DeleteCommand({
      TableName: table(), Key: k.token(tokenHash), ReturnValues: 'ALL_OLD',
    }));
    return Attributes !== undefined;
  }
}
