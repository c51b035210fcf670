// Item shapes of the identity adapters, and the one bounded Query of a user's partition.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.ts';
import { documentClient } from '../../data/dynamo.ts';
import { storeFailure } from '../../data/failures.ts';
import type { Role, Team, User } from '../model.ts';

export type Item = Record<string, unknown>;

/** Upper bound of the teams /v1/me and /v1/teams list (one Query each). */
export const MAX_TEAMS = 1000;

const USER_FIELDS = [
  'id',
  'name',
  'email',
  'userPath',
  'photo',
  'biography',
  'upgraded',
  'roles',
  'createdAt',
] as const;
const TEAM_FIELDS = [
  'id',
  'ownerId',
  'name',
  'logo',
  'path',
  'description',
  'visibility',
  'upgraded',
  'createdAt',
] as const;

export const table = (): string => config.tableName;

const pick = <T>(item: Item, fields: readonly string[]): T =>
  Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
export const toUser = (item: Item): User => ({
  ...pick<User>(item, USER_FIELDS),
  roles: (item.roles as Role[]) ?? [],
});
export const toTeam = (item: Item): Team => pick<Team>(item, TEAM_FIELDS);

/** One bounded Query: a user's profile and memberships (at most MAX_TEAMS teams are listed). */
export async function queryPartition(pk: string, skPrefix?: string): Promise<Item[]> {
  try {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: skPrefix ? 'PK = :pk AND begins_with(SK, :sk)' : 'PK = :pk',
        ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':sk': skPrefix } : { ':pk': pk },
        Limit: MAX_TEAMS + 1,
      }),
    );
    return page.Items ?? [];
  } catch (err) {
    throw storeFailure(err);
  }
}
