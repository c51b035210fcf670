// The notes search reads from the table: notes by their META and content items (BatchGetItem, strongly
// consistent: one request per 50 notes instead of a Query each, and one more for the notes whose
// content is in slot B; nothing of the trash), and a
// workspace's notes page by page (its owner index, GSI1, keys only: the shortId is the note
// partition's), for rebuilding an index.
import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName } from '../../../data/dynamo.ts';
import { notesKeys } from '../../../data/keys.ts';
import { contentOf, slotOf, toRecord } from '../../kernel/adapters/note-items.ts';
import type { StoredNote } from '../../kernel/ports.ts';
import type { Workspace } from '../model.ts';
import type { NoteSource } from '../ports.ts';

/** Notes listed per page of a rebuild. */
const PAGE = 200;
const NOTE_PREFIX = notesKeys.notePartition('');

const ownerOf = (workspace: Workspace) =>
  workspace.startsWith('team:') ? { teamPath: workspace.slice(5) } : { userId: workspace.slice(5) };

export async function listShortIds(
  workspace: Workspace,
  cursor?: string,
  pageSize = PAGE,
): Promise<{ shortIds: string[]; cursor?: string }> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: config.tableName,
      IndexName: indexName('GSI1'),
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': notesKeys.notesOfOwnerPartition(ownerOf(workspace)) },
      ProjectionExpression: 'PK',
      Limit: pageSize,
      ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString()) } : {}),
    }),
  );
  return {
    shortIds: (page.Items ?? []).map((i) => String(i.PK).slice(NOTE_PREFIX.length)),
    ...(page.LastEvaluatedKey
      ? { cursor: Buffer.from(JSON.stringify(page.LastEvaluatedKey)).toString('base64url') }
      : {}),
  };
}

/** BatchGetItem reads at most 100 keys (50 notes' META and content). */
const BATCH_KEYS = 100;
type Item = Record<string, unknown>;

/** The notes (undefined for each one deleted or in the trash), in the order asked. */
export async function getNotes(shortIds: string[]): Promise<(StoredNote | undefined)[]> {
  const items = new Map<string, Item>();
  const key = (k: { PK: string; SK: string }) => `${k.PK}|${k.SK}`;
  await batchGet(
    shortIds.flatMap((id) => [notesKeys.noteMeta(id), notesKeys.noteContent(id)]),
    items,
  );
  // Notes whose META names content slot B (written by a later change): that item, a second read.
  const inB = shortIds.filter((id) => {
    const meta = items.get(key(notesKeys.noteMeta(id)));
    return meta && slotOf(meta) === 'B';
  });
  if (inB.length)
    await batchGet(
      inB.map((id) => notesKeys.noteContent(id, 'B')),
      items,
    );
  return shortIds.map((id) => {
    const meta = items.get(key(notesKeys.noteMeta(id)));
    const content = meta && items.get(key(notesKeys.noteContent(id, slotOf(meta))));
    if (!meta || !content || meta.deletedAt !== undefined) return undefined; // absent or in the trash
    return { note: toRecord(meta), content: contentOf(content) };
  });
}

/** BatchGetItem of `keys` (strongly consistent), 100 at a time, into `items`. */
async function batchGet(keys: { PK: string; SK: string }[], items: Map<string, Item>): Promise<void> {
  const batches: Item[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_KEYS) batches.push(keys.slice(i, i + BATCH_KEYS));
  await Promise.all(
    batches.map(async (batch) => {
      let pending: Item[] | undefined = batch;
      while (pending?.length) {
        const r: BatchGetCommandOutput = await documentClient().send(
          new BatchGetCommand({
            RequestItems: { [config.tableName]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        for (const item of r.Responses?.[config.tableName] ?? []) items.set(`${item.PK}|${item.SK}`, item);
        pending = r.UnprocessedKeys?.[config.tableName]?.Keys;
      }
    }),
  );
}

export const dynamoNoteSource: NoteSource = { getNotes, listShortIds };
