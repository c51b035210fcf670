// DynamoDB adapter of users: the profile item (with roles) and a guard item per user path.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { isConditionFailure, storeFailure } from '../../data/failures.ts';
import { identityKeys as k, webhookKeys } from '../../data/keys.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import type { Role, Team, User } from '../model.ts';
import type { UserStore } from '../ports.ts';
import { queryPartition, table, toTeam, toUser, type Item } from './dynamo-items.ts';

export async function createUser(user: User): Promise<void> {
  try {
    // Transaction: the user and the uniqueness guard of its path exist together or not at all.
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...k.userPath(user.userPath), userId: user.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...k.user(user.id), type: 'user', ...user },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (err instanceof TransactionCanceledException)
      throw new Conflict(`userPath ${user.userPath} is taken`, { reason: 'path' });
    throw storeFailure(err);
  }
}

export async function getUser(userId: string): Promise<User | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: k.user(userId) }));
  return Item ? toUser(Item) : undefined;
}

export async function getUserWithTeams(
  userId: string,
): Promise<{ user: User; teams: Team[]; hookedWorkspaces: string[] } | undefined> {
  const items = await queryPartition(k.userPartition(userId));
  const profile = items.find((i) => i.SK === k.profileSk);
  if (!profile) return undefined;
  const teams = items
    .filter((i) => String(i.SK).startsWith(k.memberPrefix))
    .map((i) => toTeam(i.team as Item));
  // The webhook marks of the same partition (read by the same Query): which workspaces stamp new notes.
  const hookedWorkspaces = items
    .filter((i) => String(i.SK).startsWith(webhookKeys.workspaceMarkPrefix))
    .map((i) => String(i.workspace));
  return { user: toUser(profile), teams, hookedWorkspaces };
}

export async function grantRole(userId: string, role: Role): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: k.user(userId),
        UpdateExpression: 'SET #roles = list_append(if_not_exists(#roles, :empty), :role)',
        ConditionExpression: 'attribute_exists(PK) AND NOT contains(#roles, :roleName)',
        ExpressionAttributeNames: { '#roles': 'roles' },
        ExpressionAttributeValues: { ':empty': [], ':role': [role], ':roleName': role },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw storeFailure(err);
    // Already granted is fine; an unknown user is not.
    if (!(await getUser(userId))) throw new NotFound(`unknown user ${userId}`);
  }
}

/** Every method, for the full identity service (admin CLI, tests); functions wire only what they call. */
export class DynamoUserStore implements UserStore {
  createUser = createUser;
  getUser = getUser;
  getUserWithTeams = getUserWithTeams;
  grantRole = grantRole;
}
