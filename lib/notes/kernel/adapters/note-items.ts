// The NoteRecord stored in a note's META item (and, in part, in history entries), as read back.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type ContentSlot, folderKeys, type NoteOwnerKey, notesKeys } from '../../../data/keys.ts';
import type { NoteRecord } from '../model.ts';
import { unpack } from './packed-content.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const NOTE_FIELDS = [
  'id',
  'shortId',
  'ownerId',
  'userPath',
  'teamPath',
  'title',
  'explicitTitle',
  'tags',
  'description',
  'createdAt',
  'lastChangedAt',
  'titleUpdatedAt',
  'tagsUpdatedAt',
  'lastChangeUser',
  'publishType',
  'publishedAt',
  'permalink',
  'readPermission',
  'writePermission',
  'commentPermission',
  'suggestEditPermission',
  'parentFolderId',
  'origin',
  'noteFeatures',
  'version',
] as const satisfies readonly (keyof NoteRecord)[];

export const toRecord = (item: Record<string, unknown>): NoteRecord =>
  Object.fromEntries([
    ...NOTE_FIELDS.map((f) => [f, item[f] ?? null]),
    // The webhook marker (NoteRecord.hooked), kept only when set, so a rewrite carries it across.
    ...(item.hooked === true ? [['hooked', true]] : []),
    ...(item.live === true ? [['live', true]] : []),
    ...(typeof item.contentVersion === 'number' ? [['contentVersion', item.contentVersion]] : []),
    ...(typeof item.liveChangedAt === 'number' ? [['liveChangedAt', item.liveChangedAt]] : []),
    ...(typeof item.restContentVersion === 'number' ? [['restContentVersion', item.restContentVersion]] : []),
  ]) as unknown as NoteRecord;

/**
 * What a history entry keeps of the note: the fields the history listing shows (lib/notes/kernel/present.ts)
 * and those its folder paths need (owner, folder). toRecord reads the others back as null.
 */
export const HISTORY_FIELDS = [
  'id',
  'shortId',
  'ownerId',
  'userPath',
  'teamPath',
  'title',
  'tags',
  'description',
  'createdAt',
  'lastChangedAt',
  'titleUpdatedAt',
  'tagsUpdatedAt',
  'lastChangeUser',
  'publishType',
  'publishedAt',
  'permalink',
  'readPermission',
  'writePermission',
  'parentFolderId',
] as const satisfies readonly (typeof NOTE_FIELDS)[number][];

export const historyEntry = (note: NoteRecord | Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    HISTORY_FIELDS.filter((f) => (note as Record<string, unknown>)[f] !== undefined).map((f) => [
      f,
      (note as Record<string, unknown>)[f],
    ]),
  );

/** A user's history entry of the note: what the history listing shows of it (HISTORY_FIELDS). */
export const visitItem = (note: NoteRecord, userId: string, visitedAt: number): Record<string, unknown> => ({
  ...notesKeys.visit(note.shortId, userId),
  type: 'note-visit',
  userId,
  visitedAt,
  note: historyEntry(note),
});

/** The counter's condition as read (`visitSeq` undefined: no visit counted yet). */
export const visitsUnchanged = (visitSeq: number | undefined) =>
  visitSeq === undefined
    ? { ConditionExpression: 'attribute_not_exists(visitSeq)' }
    : { ConditionExpression: 'visitSeq = :s', ExpressionAttributeValues: { ':s': visitSeq } };

/**
 * Transaction items the notes store adds when a note enters (+1) or leaves (-1) a folder: the
 * folder's noteCount, conditional on the folder existing (so a note never points at a deleted
 * folder, and a folder holding notes cannot be deleted).
 */
export function folderCountUpdate(
  table: string,
  owner: NoteOwnerKey,
  folderId: string,
  delta: 1 | -1,
): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: folderKeys.folder(owner, folderId),
      UpdateExpression: 'ADD noteCount :d',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

/** The content slot a META item names (lib/data/keys.ts ContentSlot; undefined: A, NOTE#CONTENT). */
export const slotOf = (meta: Record<string, unknown>): ContentSlot | undefined =>
  meta.contentSlot === 'B' ? 'B' : undefined;

/** A content slot's text: `z` (Brotli) or `content`. */
export const contentOf = (item: Record<string, unknown>): string =>
  item.z ? unpack(item.z as Uint8Array) : String(item.content ?? '');
