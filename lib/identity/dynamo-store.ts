import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../data/clients.ts';
import { identityKeys as k } from '../data/keys.ts';
import type { Role, Team, User } from './model.ts';
import { PathTakenError, type IdentityStore, type TokenRecord } from './store.ts';

/** Upper bound of the teams /v1/me and /v1/teams list (one Query each). */
export const MAX_TEAMS = 1000;

const USER_FIELDS = ['id', 'name', 'email', 'userPath', 'photo', 'biography', 'upgraded', 'roles', 'createdAt'] as const;
const TEAM_FIELDS = ['id', 'ownerId', 'name', 'logo', 'path', 'description', 'visibility', 'upgraded', 'createdAt'] as const;

const pick = <T>(item: Record<string, unknown>, fields: readonly string[]): T =>
  Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
const toUser = (item: Record<string, unknown>): User => ({ ...pick<User>(item, USER_FIELDS), roles: (item.roles as Role[]) ?? [] });
const toTeam = (item: Record<string, unknown>): Team => pick<Team>(item, TEAM_FIELDS);

export class DynamoIdentityStore implements IdentityStore {
  constructor(private readonly table: () => string) {}

  async createUser(user: User): Promise<void> {
    try {
      await doc.send(new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table(), Item: { ...k.userPath(user.userPath), userId: user.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: this.table(), Item: { ...k.user(user.id), type: 'user', ...user }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }));
    } catch (err) {
      if (err instanceof TransactionCanceledException) throw new PathTakenError(`userPath ${user.userPath} is taken`);
      throw err;
    }
  }

  async getUser(userId: string): Promise<User | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.user(userId) }));
    return Item ? toUser(Item) : undefined;
  }

  async getUserWithTeams(userId: string) {
    const items = await this.queryPartition(k.userPartition(userId));
    const profile = items.find((i) => i.SK === 'PROFILE');
    if (!profile) return undefined;
    const teams = items.filter((i) => String(i.SK).startsWith(k.memberPrefix)).map((i) => toTeam(i.team as Record<string, unknown>));
    return { user: toUser(profile), teams };
  }

  async listTeamsOfUser(userId: string): Promise<Team[]> {
    const items = await this.queryPartition(k.userPartition(userId), k.memberPrefix);
    return items.map((i) => toTeam(i.team as Record<string, unknown>));
  }

  async createTeam(team: Team): Promise<void> {
    try {
      await doc.send(new PutCommand({
        TableName: this.table(), Item: { ...k.team(team.path), type: 'team', ...team }, ConditionExpression: 'attribute_not_exists(PK)',
      }));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new PathTakenError(`team path ${team.path} is taken`);
      throw err;
    }
  }

  async getTeam(teamPath: string): Promise<Team | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.team(teamPath) }));
    return Item ? toTeam(Item) : undefined;
  }

  async addMember(team: Team, userId: string): Promise<void> {
    const joinedAt = Date.now();
    await doc.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.table(), Item: { ...k.membershipOfUser(userId, team.path), type: 'membership', team, joinedAt } } },
        { Put: { TableName: this.table(), Item: { ...k.membershipOfTeam(team.path, userId), type: 'membership', userId, joinedAt } } },
      ],
    }));
  }

  async isMember(teamPath: string, userId: string): Promise<boolean> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.membershipOfUser(userId, teamPath), ProjectionExpression: 'PK' }));
    return Item !== undefined;
  }

  async grantRole(userId: string, role: Role): Promise<void> {
    await doc.send(new UpdateCommand({
      TableName: this.table(), Key: k.user(userId),
      UpdateExpression: 'SET #roles = list_append(if_not_exists(#roles, :empty), :role)',
      ConditionExpression: 'attribute_exists(PK) AND NOT contains(#roles, :roleName)',
      ExpressionAttributeNames: { '#roles': 'roles' },
      ExpressionAttributeValues: { ':empty': [], ':role': [role], ':roleName': role },
    })).catch((err) => {
      // Already granted is fine; an unknown user is not.
      if (err instanceof ConditionalCheckFailedException) return this.getUser(userId).then((u) => { if (!u) throw new Error(`unknown user ${userId}`); });
      throw err;
    });
  }

  async putToken(tokenHash: string, record: TokenRecord): Promise<void> {
    await doc.send(new PutCommand({
      TableName: this.table(),
      Item: { ...k.token(tokenHash), ...k.tokensOfUser(record.userId), type: 'token', ...record },
      ConditionExpression: 'attribute_not_exists(PK)',
    }));
  }

  async getToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: this.table(), Key: k.token(tokenHash) }));
    return Item ? { userId: String(Item.userId), createdAt: Number(Item.createdAt) } : undefined;
  }

  async deleteToken(tokenHash: string): Promise<boolean> {
    const { Attributes } = await doc.send(new DeleteCommand({ TableName: this.table(), Key: k.token(tokenHash), ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined;
  }

  /** One bounded Query: a user's profile and memberships (at most MAX_TEAMS teams are listed). */
  private async queryPartition(pk: string, skPrefix?: string): Promise<Record<string, unknown>[]> {
    const page = await doc.send(new QueryCommand({
      TableName: this.table(),
      KeyConditionExpression: skPrefix ? 'PK = :pk AND begins_with(SK, :sk)' : 'PK = :pk',
      ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':sk': skPrefix } : { ':pk': pk },
      Limit: MAX_TEAMS + 1,
    }));
    return page.Items ?? [];
  }
}
