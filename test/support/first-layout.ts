// The table's first layout (before `npm run admin -- migrate` existed), for the migration test: the
// items today's code writes are made through the API, then each is put back into the shape the first
// layout's code wrote. A change of layout adds here how its items looked before, beside its
// migration step (infra/admin/migrate/steps).
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/data/dynamo.ts';
import { identityKeys } from '../../lib/data/keys.ts';
import { hashToken } from '../../lib/identity/tokens.ts';
import type { TestUser } from './identity.ts';

/** How many items were changed back to the first layout. */
export async function toFirstLayout(users: TestUser[]): Promise<number> {
  let changed = 0;
  for (const u of users) changed += await tokenInIndex(u);
  return changed;
}

/** First layout: every token item carried GSI1 keys (TOKENS#<userId>, TOKEN#<ms>). */
async function tokenInIndex(u: TestUser): Promise<number> {
  await documentClient().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: identityKeys.token(hashToken(u.token)),
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: {
        ':pk': `${identityKeys.legacyTokensPrefix}${u.id}`,
        ':sk': `TOKEN#${Date.now()}`,
      },
    }),
  );
  return 1;
}

/** The first layout's token items of a user, as its GSI1 listed them. */
export async function tokensInIndex(userId: string, indexName: string): Promise<number> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      IndexName: indexName,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': `${identityKeys.legacyTokensPrefix}${userId}` },
    }),
  );
  return Items.length;
}
