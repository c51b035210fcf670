// The notes search reads from the table: notes by their META and CONTENT items (BatchGetItem, strongly
// consistent: one request per 50 notes instead of a Query each; nothing of the trash), and a
// workspace's notes page by page (its owner index, GSI1, keys only: the shortId is the note
// partition's), for rebuilding an index.
import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName } from '../../../data/dynamo.ts';
import { notesKeys } from '../../../data/keys.ts';
import { toRecord } from '../../kernel/adapters/note-items.ts';
import { unpack } from '../../kernel/adapters/packed-content.ts';
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

/** BatchGetItem reads at most 100 keys: 50 notes' META and CONTENT. */
const BATCH_NOTES = 50;
type Item = Record<string, unknown>;

/** The notes (undefined for each one deleted or in the trash), in the order asked. */
export async function getNotes(shortIds: string[]): Promise<(StoredNote | undefined)[]> {
  const items = new Map<string, Item>();
  const batches: string[][] = [];
  for (let i = 0; i < shortIds.length; i += BATCH_NOTES) batches.push(shortIds.slice(i, i + BATCH_NOTES));
  await Promise.all(
    batches.map(async (batch) => {
      let keys: Item[] | undefined = batch.flatMap((id) => [
        { ...notesKeys.noteMeta(id) },
        { ...notesKeys.noteContent(id) },
      ]);
      while (keys?.length) {
        const r: BatchGetCommandOutput = await documentClient().send(
          new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of r.Responses?.[config.tableName] ?? []) items.set(`${item.PK}|${item.SK}`, item);
        keys = r.UnprocessedKeys?.[config.tableName]?.Keys;
      }
    }),
  );
  return shortIds.map((id) => {
    const key = (k: { PK: string; SK: string }) => `${k.PK}|${k.SK}`;
    const meta = items.get(key(notesKeys.noteMeta(id)));
    const content = items.get(key(notesKeys.noteContent(id)));
    if (!meta || !content || meta.deletedAt !== undefined) return undefined; // absent or in the trash
    return {
      note: toRecord(meta),
      content: content.z ? unpack(content.z as Uint8Array) : String(content.content ?? ''),
    };
  });
}

export const dynamoNoteSource: NoteSource = { getNotes, listShortIds };
