// The notes search reads from the table: a note through the Notes store (getNote: META and CONTENT,
// strongly consistent, nothing of the trash), and a workspace's notes page by page (its owner index,
// GSI1, keys only: the shortId is the note partition's), for rebuilding an index.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, indexName } from '../../../data/dynamo.ts';
import { notesKeys } from '../../../data/keys.ts';
import type { NotesStore } from '../../kernel/ports.ts';
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

/** The search's note source, reading a note through the Notes store's `getNote` (given by the wiring). */
export const dynamoNoteSource = (getNote: NotesStore['getNote']): NoteSource => ({
  getNote: (shortId) => getNote(shortId),
  listShortIds,
});
