// DynamoDB adapter of teams: the team item, and each membership twice (under the user, with a copy
// of the team, so /me reads one partition; under the team).
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../data/dynamo.ts';
import { conditional } from '../../data/failures.ts';
import { identityKeys as k, webhookKeys } from '../../data/keys.ts';
import { Conflict } from '../../domain/errors.ts';
import type { Team } from '../model.ts';
import type { TeamStore } from '../ports.ts';
import { queryPartition, table, toTeam, type Item } from './dynamo-items.ts';

export async function createTeam(team: Team): Promise<void> {
  await conditional(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...k.team(team.path), type: 'team', ...team },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
    () => new Conflict(`team path ${team.path} is taken`, { reason: 'path' }),
  );
}

export async function getTeam(teamPath: string): Promise<Team | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: k.team(teamPath) }));
  return Item ? toTeam(Item) : undefined;
}

export async function addMember(team: Team, userId: string): Promise<void> {
  const joinedAt = Date.now();
  // A team with webhooks marks its new member too, so their new notes are stamped for the event
  // stream's filter (webhookKeys.workspaceMark; docs/architecture.md, "Webhook events").
  const owner = { teamPath: team.path };
  const { Item: hooks } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: webhookKeys.count(owner), ConsistentRead: true }),
  );
  const mark =
    Number(hooks?.n ?? 0) > 0
      ? [
          {
            Put: {
              TableName: table(),
              Item: {
                ...webhookKeys.workspaceMark(userId, owner),
                type: 'webhook-mark',
                workspace: webhookKeys.markedWorkspace(owner),
              },
            },
          },
        ]
      : [];
  // Transaction: the membership's two sides (the user's and the team's) and the webhook mark agree.
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: { ...k.membershipOfUser(userId, team.path), type: 'membership', team, joinedAt },
          },
        },
        {
          Put: {
            TableName: table(),
            Item: { ...k.membershipOfTeam(team.path, userId), type: 'membership', userId, joinedAt },
          },
        },
        ...mark,
      ],
    }),
  );
}

export async function isMember(teamPath: string, userId: string): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: k.membershipOfUser(userId, teamPath),
      ProjectionExpression: 'PK',
    }),
  );
  return Item !== undefined;
}

export async function listTeamsOfUser(userId: string): Promise<Team[]> {
  const items = await queryPartition(k.userPartition(userId), k.memberPrefix);
  return items.map((i) => toTeam(i.team as Item));
}

/** Every method, for the full identity service (admin CLI, tests); functions wire only what they call. */
export class DynamoTeamStore implements TeamStore {
  createTeam = createTeam;
  getTeam = getTeam;
  addMember = addMember;
  isMember = isMember;
  listTeamsOfUser = listTeamsOfUser;
}
