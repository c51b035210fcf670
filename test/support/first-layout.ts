// The table's first layout (before `npm run admin -- migrate` existed), for the migration test: the
// items today's code writes are made through the API, then each is put back into the shape the first
// layout's code wrote. A change of layout adds here how its items looked before, beside its
// migration step (infra/admin/migrate/steps).
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/data/dynamo.ts';
import { identityKeys, INDEXES, notesKeys } from '../../lib/data/keys.ts';
import { hashToken } from '../../lib/identity/tokens.ts';
import { HISTORY_FIELDS } from '../../lib/notes/kernel/adapters/note-items.ts';
import type { TestUser } from './identity.ts';

/** How many writes the migration must make to bring the aged items back (one per aged item and change). */
export async function toFirstLayout(users: TestUser[], noteIds: string[] = []): Promise<number> {
  let changed = 0;
  for (const u of users) changed += await tokenInIndex(u);
  for (const id of noteIds) changed += (await visitsOnContent(id)) + (await fullHistoryCopies(id));
  return changed;
}

const table = () => process.env.TABLE_NAME;

/**
 * The writes the migration still has to make for these users' tokens and these notes, one line
 * each: their items still in the first layout. Fewer than toFirstLayout's count once the API has
 * served them (a note read writes its reader's history entry anew, in today's layout).
 */
export async function firstLayoutLeft(users: TestUser[], shortIds: string[]): Promise<string[]> {
  const left: string[] = [];
  for (const u of users) if (await tokensInIndex(u.id, INDEXES.GSI1.name)) left.push(`token of ${u.id}`);
  const kept = new Set<string>(HISTORY_FIELDS);
  for (const shortId of shortIds) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        ConsistentRead: true,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': notesKeys.notePartition(shortId) },
      }),
    );
    if (!Items.length) left.push(`note ${shortId} is gone`);
    for (const i of Items) {
      const at = `${i.PK} ${i.SK}`;
      if (
        i.SK === notesKeys.noteContent(shortId).SK &&
        (i.visitSeq !== undefined || i.deletedAt !== undefined)
      ) {
        left.push(`${at}: visitSeq ${i.visitSeq}`);
        if (i.deletedAt !== undefined) left.push(`${at}: deletedAt (to NOTE#VISITS)`);
      }
      if (i.type === 'note-visit' && Object.keys(i.note ?? {}).some((f) => !kept.has(f)))
        left.push(`${at}: a whole copy of the note`);
    }
  }
  return left;
}

/**
 * First layout: a note's visit counter (`visitSeq`) lived on its CONTENT item, and so did a trashed
 * note's `deletedAt` and `ttl`; there was no NOTE#VISITS item. The migration writes CONTENT back
 * (one write), and for a trashed note the counter item too (a second write).
 */
async function visitsOnContent(shortId: string): Promise<number> {
  const { Item: visits } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: notesKeys.noteVisits(shortId) }),
  );
  const { Item: content } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: notesKeys.noteContent(shortId) }),
  );
  if (!content) return 0;
  const trashed = visits?.deletedAt !== undefined;
  const set: Record<string, unknown> = { visitSeq: visits?.visitSeq ?? 0 };
  if (trashed) {
    set.deletedAt = visits?.deletedAt;
    if (visits?.ttl !== undefined) set.ttl = visits.ttl;
  }
  const names = Object.keys(set);
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: notesKeys.noteContent(shortId),
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, set[n]])),
    }),
  );
  if (visits)
    await documentClient().send(
      new DeleteCommand({ TableName: table(), Key: notesKeys.noteVisits(shortId) }),
    );
  return trashed ? 2 : 1;
}

/** First layout: a history entry carried a copy of the whole note record (its META item's fields). */
async function fullHistoryCopies(shortId: string): Promise<number> {
  const { Item: meta } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: notesKeys.noteMeta(shortId) }),
  );
  if (!meta) return 0;
  const note = Object.fromEntries(
    Object.entries(meta).filter(([name]) => !/^(PK|SK|GSI\w+|ttl|type)$/.test(name)),
  );
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :visit)',
      ExpressionAttributeValues: { ':pk': notesKeys.notePartition(shortId), ':visit': notesKeys.visitPrefix },
    }),
  );
  for (const entry of Items)
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: entry.PK, SK: entry.SK },
        UpdateExpression: 'SET note = :note',
        ExpressionAttributeValues: { ':note': note },
      }),
    );
  return Items.length;
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
